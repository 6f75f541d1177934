/**
 * Mirrors a connected file host's folder into the library: a full listing the first time (or
 * when the host no longer knows the cursor), the changes after the stored cursor afterwards.
 * Either way the result goes through the local scan's reconcile, so tags are read (over byte
 * ranges), matched and written the same way, and the cursor moves only once all of it is stored.
 */
import type { AppContext } from '../context.ts';
import { emptyReport, reconcile, whileLeased } from '../library/scan/reconcile.ts';
import { reportSummary, type ScanReport } from '../library/scan/report.ts';
import { runDetached } from '../../toolkit/background.ts';
import { withAccessToken } from '../providers/connections.ts';
import { providerClient } from '../providers/registry.ts';
import type { FileHostClient } from '../providers/types.ts';
import { FILE_HOSTS, IGNORES_CASE, type FileHostName } from './hosts.ts';
import { Listing } from './listing.ts';
import { readRemoteTags } from './remote-tags.ts';
import { ensureFileHostSource, folderName, type FileHostSource } from './source.ts';

export interface SyncOptions {
  signal?: AbortSignal | undefined;
  /** Starts the mirror afresh at this folder (chosen when connecting). */
  folder?: string | undefined;
}

interface Listed {
  listing: Listing;
  cursor: string;
  rootId: string | null;
}

/** The host's folder as it is now: the stored mirror plus the changes after its cursor, or a full listing. */
async function listFolder(ctx: AppContext, userId: string, client: FileHostClient, source: FileHostSource): Promise<Listed> {
  const host = client.name as FileHostName;
  const call = <T>(work: (token: string) => Promise<T>) => withAccessToken(ctx, userId, host, work);
  if (source.sync_cursor !== null) {
    const listing = await Listing.stored(ctx.db, source.id, IGNORES_CASE[host]);
    const changed = await call((token) => client.changes(token, source.root, source.sync_cursor!, listing.lookup()));
    if (changed !== 'reset') {
      for (const change of changed.changes) listing.apply(change);
      return { listing, cursor: changed.cursor, rootId: source.root_file_id };
    }
  }
  const tree = await call((token) => client.listTree(token, source.root));
  const listing = new Listing(IGNORES_CASE[host], tree.rootId);
  for (const entry of tree.entries) listing.apply(entry, false);
  return { listing, cursor: tree.cursor, rootId: tree.rootId };
}

/**
 * Syncs the user's mirror of the host and returns the report (kept on the source, as a scan's
 * is). A sync already running for it (in any process on this database) makes this one answer
 * 'already-scanning' at once.
 */
export async function syncFileHost(ctx: AppContext, userId: string, host: FileHostName, options: SyncOptions = {}): Promise<ScanReport> {
  const client = providerClient(ctx.config, host);
  const source = await ensureFileHostSource(ctx.db, userId, host, options.folder);
  const report = emptyReport(source.id, source.root, new Date());
  return whileLeased(ctx, report, options, async (checkpoint) => {
    const { listing, cursor, rootId } = await listFolder(ctx, userId, client, source);
    checkpoint();
    const target = {
      sourceId: source.id,
      userId,
      rootName: folderName(host, source.root),
      readTags: readRemoteTags.bind(null, { ctx, userId, client, root: source.root }),
    };
    Object.assign(report, await reconcile(ctx, target, listing.toWalk(), checkpoint));
    await ctx.db.updateTable('library_sources').set({ sync_cursor: cursor, root_file_id: rootId }).where('id', '=', source.id).execute();
  });
}

/** Syncs every connected file host of every user whose host is configured; one failing does not stop the rest. */
export async function syncAllFileHosts(ctx: AppContext, signal?: AbortSignal): Promise<string | undefined> {
  const hosts = FILE_HOSTS.filter((host) => ctx.config.providers[host] !== undefined);
  if (hosts.length === 0) return undefined;
  const accounts = await ctx.db
    .selectFrom('provider_accounts')
    .select(['user_id', 'provider'])
    .where('provider', 'in', hosts)
    .where('status', '=', 'connected')
    .execute();
  const outcome = { synced: 0, busy: 0, failed: 0, changed: 0 };
  for (const account of accounts) {
    signal?.throwIfAborted();
    try {
      const report = await syncFileHost(ctx, account.user_id, account.provider as FileHostName, { signal });
      if (report.status === 'already-scanning') outcome.busy++;
      else outcome.synced++;
      outcome.changed += report.added + report.updated + report.removed;
    } catch (error) {
      if (signal?.aborted) throw error;
      outcome.failed++;
      console.error(`File host sync of ${account.provider} for user ${account.user_id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return accounts.length === 0
    ? undefined
    : `${outcome.synced} file host mirrors synced (${outcome.changed} files changed), ${outcome.busy} busy elsewhere, ${outcome.failed} failed`;
}

/** A file host just connected: its folder becomes the user's mirror, and the first sync starts (not awaited). */
export async function startMirror(ctx: AppContext, userId: string, host: FileHostName, folder: string): Promise<void> {
  await ensureFileHostSource(ctx.db, userId, host, folder);
  runDetached(`${host} first sync`, async () => reportSummary(await syncFileHost(ctx, userId, host)));
}
