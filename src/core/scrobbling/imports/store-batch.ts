import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';
import type { AppContext } from '../../context.ts';
import { importBatch } from './batch.ts';
import type { ImportBatch, ImportBatchResult } from './schemas.ts';

/**
 * Stores one batch of a user's imported history file and counts its plays. A batch is one long
 * write transaction: it starts only when no interactive statement waits for the embedded database.
 */
export async function storeImportBatch(ctx: AppContext, userId: string, batch: ImportBatch): Promise<ImportBatchResult> {
  const result = await asHeavyWork(() => importBatch(ctx.db, ctx.config, userId, batch));
  // A dry run stores nothing, so it counts as no play.
  if (!batch.dryRun) ctx.metrics.playsImported(batch.format, result);
  return result;
}
