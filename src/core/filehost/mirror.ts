/**
 * The caller's mirror of a file host folder: reading a folder of it (from the database, so a broken
 * connection still shows it) and syncing it now. Provider and library failures are answered as XRPC
 * errors.
 */
import { invalidRequest } from '../../toolkit/errors.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { AppContext } from '../context.ts';
import { LibraryError, libraryNotFound } from '../library/errors.ts';
import { folderProblem } from '../providers/connect.ts';
import { existingConnection } from '../providers/connections.ts';
import { ProviderError } from '../providers/errors.ts';
import { providerConfig } from '../providers/registry.ts';
import type { FileHostName } from './hosts.ts';
import { fileHostSource } from './source.ts';
import { syncFileHost } from './sync.ts';
import { folderListing } from './views.ts';

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

/** A folder of the user's mirror (`at`: a path at the host or its folder id; the mirrored folder when absent). */
export function mirroredFolder(ctx: AppContext, userId: string, host: FileHostName, at: string | undefined) {
  return asXrpc(async () => folderListing(ctx.db, host, await connectedSource(ctx, userId, host), at));
}

/** Syncs the user's mirror now (of `folder` from now on, when given); answers what changed. */
export function syncMirror(ctx: AppContext, userId: string, host: FileHostName, folder: string | undefined) {
  return asXrpc(async () => {
    const problem = folder === undefined ? null : folderProblem(folder);
    if (problem) throw invalidRequest(problem);
    const report = await syncFileHost(ctx, userId, host, { folder });
    const { status, root, startedAt, durationMs, added, updated, removed, unchanged, directories, skippedCount, skipped } = report;
    return {
      status,
      folder: root,
      startedAt: isoDateTime(new Date(startedAt)),
      durationMs,
      added,
      updated,
      removed,
      unchanged,
      directories,
      skippedCount,
      skipped,
    };
  });
}
