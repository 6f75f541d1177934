/**
 * `app.svc.filehostA` and `app.svc.filehostB`: the caller's mirrored folder (getFiles, spec 4.6)
 * and syncing it on demand. One declaration per operation and host, made from one table.
 */
import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../../toolkit/errors.ts';
import { defineProcedure, defineQuery } from '../../adapters/http/operation.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { AppContext } from '../context.ts';
import { LibraryError, libraryNotFound } from '../library/errors.ts';
import { folderProblem } from '../providers/connect.ts';
import { existingConnection } from '../providers/connections.ts';
import { ProviderError } from '../providers/errors.ts';
import { providerConfig } from '../providers/registry.ts';
import { FILE_HOSTS, type FileHostName } from './hosts.ts';
import { fileHostSource } from './source.ts';
import { syncFileHost } from './sync.ts';
import { LISTINGS, folderListing } from './views.ts';

/** Runs a file host operation, answering provider and library failures as XRPC errors. */
async function asXrpc<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderError || error instanceof LibraryError) throw error.toXrpc();
    throw error;
  }
}

async function connectedSource(ctx: AppContext, userId: string, host: FileHostName) {
  providerConfig(ctx.config, host);
  // A broken connection still shows its mirror: the listing comes from the database.
  await existingConnection(ctx.db, userId, host);
  const source = await fileHostSource(ctx.db, userId, host);
  if (!source) throw libraryNotFound(`nothing of ${host} is mirrored yet: start a sync with app.svc.${host}.sync`);
  return source;
}

const SyncReport = Type.Object({
  status: Type.Union([Type.Literal('scanned'), Type.Literal('already-scanning')], { description: 'already-scanning: a sync of this folder was running; this one did nothing' }),
  folder: Type.String(),
  startedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Integer(),
  added: Type.Integer(),
  updated: Type.Integer(),
  removed: Type.Integer(),
  unchanged: Type.Integer(),
  directories: Type.Integer(),
  skippedCount: Type.Integer(),
  skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
});

const PROVIDER_ERRORS = ['ProviderNotConfigured', 'NotConnected', 'ConnectionBroken', 'NotFound', 'ProviderRefused', 'RateLimitExceeded', 'ProviderUnavailable'] as const;

function hostOperations(host: FileHostName) {
  const getFiles = defineQuery({
    nsid: `app.svc.${host}.getFiles`,
    summary: `A folder of the caller's ${host} mirror, from the database: its files, subfolders and parent`,
    auth: 'required',
    params: Type.Object({
      at: Type.Optional(Type.String({ maxLength: 4096, description: 'the folder: a path at the host (e.g. /Music/Rock) or the host\'s folder id; default the mirrored folder (/Music unless chosen otherwise)' })),
    }),
    output: LISTINGS[host],
    errors: ['InvalidRequest', 'ProviderNotConfigured', 'NotConnected', 'NotFound'],
    handler: ({ params, viewer, ctx }) => asXrpc(async () => folderListing(ctx.db, host, await connectedSource(ctx, viewer.userId, host), params.at)),
  });
  const sync = defineProcedure({
    nsid: `app.svc.${host}.sync`,
    summary: `Sync the caller's ${host} mirror now (only the changes since the last sync) and answer what changed; with \`folder\`, mirror that folder instead`,
    auth: 'required',
    input: Type.Object({ folder: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'a folder at the host to mirror from now on, e.g. /Music' })) }),
    output: SyncReport,
    errors: ['InvalidRequest', ...PROVIDER_ERRORS],
    handler: ({ input, viewer, ctx }) =>
      asXrpc(async () => {
        const problem = input.folder === undefined ? null : folderProblem(input.folder);
        if (problem) throw invalidRequest(problem);
        const report = await syncFileHost(ctx, viewer.userId, host, { folder: input.folder });
        const { status, root, startedAt, durationMs, added, updated, removed, unchanged, directories, skippedCount, skipped } = report;
        return { status, folder: root, startedAt: isoDateTime(new Date(startedAt)), durationMs, added, updated, removed, unchanged, directories, skippedCount, skipped };
      }),
  });
  return [getFiles, sync];
}

export const fileHostOperations = FILE_HOSTS.flatMap(hostOperations);
