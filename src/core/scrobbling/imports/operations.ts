import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../../adapters/http/operation.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';
import { importBatch, importStatus } from './batch.ts';
import { Fingerprint, ImportBatch, ImportBatchResult, ImportStatus, MAX_IMPORT_BATCH } from './schemas.ts';

/** Room for a full batch at ListenBrainz's limit of 10,240 bytes per listen; the XRPC default would cap batches at a few dozen rich listens. */
const IMPORT_BODY_LIMIT = MAX_IMPORT_BATCH * 10_240;

export const importListens = defineProcedure({
  nsid: 'app.svc.scrobble.importListens',
  summary: "Store one batch of an imported history file and advance the file's checkpoint atomically",
  auth: 'required',
  input: ImportBatch,
  output: ImportBatchResult,
  errors: ['CheckpointMismatch', 'ImportComplete'],
  bodyLimit: IMPORT_BODY_LIMIT,
  // A batch is one long write transaction: it starts only when no interactive statement waits for the embedded database.
  handler: async ({ input, viewer, ctx }) => {
    const result = await asHeavyWork(() => importBatch(ctx.db, ctx.config, viewer.userId, input));
    // A dry run stores nothing, so it counts as no play.
    if (!input.dryRun) ctx.metrics.playsImported(input.format, result);
    return result;
  },
});

export const getImport = defineQuery({
  nsid: 'app.svc.scrobble.getImport',
  summary: "How far the caller's import of a file (by fingerprint) got; a re-run resumes from recordsConsumed",
  auth: 'required',
  params: Type.Object({ fingerprint: Fingerprint }),
  output: ImportStatus,
  handler: ({ params, viewer, ctx }) => importStatus(ctx.db, viewer.userId, params.fingerprint),
});

export const importOperations = [importListens, getImport];
