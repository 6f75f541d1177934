import { sql } from 'kysely';
import { runDetached } from '../../toolkit/background.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import type { SyncSourceKind } from '../../toolkit/db/schema.ts';
import { httpUrlParam, invalidRequest, notFound, XrpcError } from '../../toolkit/errors.ts';
import type { AppContext } from '../context.ts';
import { listenbrainzRoot } from '../providers/listenbrainz/client.ts';
import type { SourceRow } from './pages.ts';
import { claimSource, configuredSyncOptions, runClaimed } from './runner.ts';

/** How many sources one account may sync from: one per account anyone has, and a bound on the work. */
export const MAX_SOURCES_PER_ACCOUNT = 5;

export interface NewSource {
  kind: SyncSourceKind;
  username: string;
  /** A ListenBrainz server other than the configured one (LISTENBRAINZ_URL); none for Last.fm. */
  baseUrl?: string | undefined;
}

/** Where a source is: pulling its history, up to date and looking for new plays, paused, or failing (retried with backoff). */
export type SourceState = 'initial' | 'incremental' | 'paused' | 'error';

export interface SourceStatus {
  id: string;
  kind: SyncSourceKind;
  username: string;
  baseUrl: string | null;
  state: SourceState;
  /** A runner holds the source now. */
  running: boolean;
  /** The pass in progress: plays fetched so far, and how many the service said it holds (when it says). */
  pass: { fetched: number; expected: number | null; from: Date | null; to: Date } | null;
  historyDoneAt: Date | null;
  syncedUntil: Date | null;
  fetched: number;
  stored: number;
  duplicate: number;
  ignored: number;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

function statusOf(row: SourceRow): SourceStatus {
  const failing = row.last_error !== null && (row.last_success_at === null || (row.last_error_at ?? row.last_success_at) > row.last_success_at);
  const state: SourceState = row.paused ? 'paused' : failing ? 'error' : row.history_done_at ? 'incremental' : 'initial';
  return {
    id: row.id,
    kind: row.kind,
    username: row.username,
    baseUrl: row.base_url,
    state,
    running: row.lease_until !== null && row.lease_until > new Date(),
    pass: row.pass_to ? { fetched: row.pass_fetched, expected: row.pass_expected, from: row.pass_from, to: row.pass_to } : null,
    historyDoneAt: row.history_done_at,
    syncedUntil: row.synced_until,
    fetched: row.fetched,
    stored: row.stored,
    duplicate: row.duplicate,
    ignored: row.ignored,
    nextRunAt: row.paused ? null : row.next_run_at,
    lastRunAt: row.last_run_at,
    lastSuccessAt: row.last_success_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
  };
}

function checkedBaseUrl(ctx: AppContext, source: NewSource): string | null {
  if (source.kind === 'lastfm') {
    if (source.baseUrl) throw invalidRequest("A Last.fm source uses the server's Last.fm API: give no baseUrl");
    if (!ctx.config.relay.lastfm) throw new XrpcError(400, 'ProviderNotConfigured', 'This server has no Last.fm API key (LASTFM_RELAY_API_KEY)');
    return null;
  }
  const raw = source.baseUrl ?? ctx.config.sync.listenbrainzUrl;
  httpUrlParam('baseUrl', raw);
  return listenbrainzRoot(raw);
}

/** Starts a run in this process now, when this process runs syncs (the job would take it within seconds anyway). */
function kick(ctx: AppContext, userId: string, id: string): void {
  if (!ctx.config.sync.enabled) return;
  runDetached('Sync', async () => {
    const options = configuredSyncOptions(ctx);
    const claim = await claimSource(ctx, options, { userId, id });
    if (!claim) return undefined;
    const summary = await runClaimed(ctx, claim, options);
    return summary.stored > 0 ? `synced in ${summary.stored} plays from ${claim.row.kind} user ${claim.row.username}` : undefined;
  });
}

export async function addSource(ctx: AppContext, userId: string, source: NewSource): Promise<SourceStatus> {
  const baseUrl = checkedBaseUrl(ctx, source);
  const id = await inTransaction(ctx.db, async (tx) => {
    // The user's row locked first: concurrent additions are counted one after another.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const existing = await tx.selectFrom('sync_sources').select(['kind', 'base_url', 'username']).where('user_id', '=', userId).execute();
    if (existing.some((row) => row.kind === source.kind && row.base_url === baseUrl && row.username.toLowerCase() === source.username.toLowerCase())) {
      throw new XrpcError(409, 'EntryExists', `This account already syncs from ${source.kind} user ${source.username}`);
    }
    if (existing.length >= MAX_SOURCES_PER_ACCOUNT) {
      throw new XrpcError(409, 'LimitExceeded', `An account may sync from at most ${MAX_SOURCES_PER_ACCOUNT} sources; remove one first`);
    }
    const row = await tx
      .insertInto('sync_sources')
      .values({ user_id: userId, kind: source.kind, base_url: baseUrl, username: source.username })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  kick(ctx, userId, id);
  return getSourceStatus(ctx, userId, id);
}

/** Stops syncing from a source; the plays it brought stay. A run in progress loses its lease and stores nothing more. */
export async function removeSource(ctx: AppContext, userId: string, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('sync_sources').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('No such sync source');
}

async function requireSource(ctx: AppContext, userId: string, id: string): Promise<SourceRow> {
  const row = await ctx.db.selectFrom('sync_sources').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('No such sync source');
  return row;
}

export async function getSourceStatus(ctx: AppContext, userId: string, id: string): Promise<SourceStatus> {
  return statusOf(await requireSource(ctx, userId, id));
}

export async function listSources(ctx: AppContext, userId: string): Promise<SourceStatus[]> {
  const rows = await ctx.db.selectFrom('sync_sources').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map(statusOf);
}

/** Makes the source due now (a failing one too, skipping its backoff), and resumes it if paused. */
export async function runNow(ctx: AppContext, userId: string, id: string): Promise<SourceStatus> {
  await requireSource(ctx, userId, id);
  await ctx.db.updateTable('sync_sources').set({ next_run_at: sql<Date>`now()`, paused: false }).where('user_id', '=', userId).where('id', '=', id).execute();
  kick(ctx, userId, id);
  return getSourceStatus(ctx, userId, id);
}

/** Pauses or resumes a source; a paused source keeps its cursor, and a run in progress finishes its page. */
export async function setPaused(ctx: AppContext, userId: string, id: string, paused: boolean): Promise<SourceStatus> {
  await requireSource(ctx, userId, id);
  await ctx.db.updateTable('sync_sources').set({ paused }).where('user_id', '=', userId).where('id', '=', id).execute();
  return getSourceStatus(ctx, userId, id);
}
