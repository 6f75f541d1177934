import { createHash } from 'node:crypto';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Config } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import {
  fillKnownGaps,
  matchKnown,
  matchKnownTracks,
  resolveKnownTracks,
  resolveTrack,
  resolveTracks,
  type KnownMatch,
  type ResolvedTrack,
} from '../catalog/resolve.ts';
import { connectionLimit, inTransaction, type Database, type DB } from '../../toolkit/db/index.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';
import { GroupCommit } from './group-commit.ts';
import { listenProblem, submissionProblem } from './listen-rules.ts';
import { PlayClaims } from './play-claims.ts';
import { enqueueRelayPlays } from '../relay/outbox.ts';
import { forwardNowPlaying } from '../relay/forward.ts';
import { enqueueWebhookScrobbles } from '../webhooks/outbox.ts';
import { announceNowPlaying, announcePlays } from '../live/announce.ts';

/** A play's key as a batch answer names it: 96 bits of its hash, short however long the song's names. */
const claimKey = (play: string) => createHash('sha256').update(play).digest('base64url').slice(0, 16);

export interface Listen extends TrackMetadata {
  listenedAt: Date;
  /** How long the play actually lasted, in ms, where the client said (listen-rules.ts); absent: unknown. */
  playedMs?: number | undefined;
  /** The client's own payload for this listen, stored verbatim so nothing is lost to matching. */
  submitted?: Record<string, unknown> | undefined;
}

export type ListenOutcome = { status: 'stored' | 'duplicate'; scrobbleId: string; trackId: string; matched: boolean } | { status: 'ignored'; reason: string };

/** Where a listen came from: 'listenbrainz', 'lastfm', 'audioscrobbler', 'api', 'import:<format>', 'sync:<service>'. */
export type ListenSource = string;

/** How long a now-playing of a track of unknown length lasts. */
export const NOW_PLAYING_FALLBACK_MS = 10 * 60 * 1000;
function metadataCacheKey(listen: TrackMetadata): string {
  return JSON.stringify([listen.artist, listen.title, listen.album, listen.mbid, listen.isrc]);
}

type Tx = Transaction<DB>;

/**
 * Stores listens for one user: each is matched against the catalog (created
 * there when missing, unless UNMATCHED_SCROBBLES=skip), and a listen already
 * stored (same user, track and time) is reported as a duplicate. Outcomes are
 * in input order. A few listens (a scrobbler's usual call) are matched and
 * stored in one short transaction, shared with the other calls waiting at the
 * same moment (group-commit.ts): one commit for all of them. A larger batch is
 * matched in short transactions and the scrobbles written in one more, so it
 * never holds the database for long.
 */
export async function ingestListens(ctx: AppContext, userId: string, listens: readonly Listen[], source: ListenSource): Promise<ListenOutcome[]> {
  const outcomes = await storeCommitted(ctx, userId, listens, source);
  // Counted once committed: a transaction retried after a conflict must not count twice.
  ctx.metrics.playsIngested(source, outcomes);
  // Live streams (core/live): the plays this call stored, now that they are committed.
  announcePlays(
    ctx,
    source,
    outcomes.flatMap((outcome) => (outcome.status === 'stored' ? [outcome.scrobbleId] : [])),
  );
  return outcomes;
}

async function storeCommitted(ctx: AppContext, userId: string, listens: readonly Listen[], source: ListenSource): Promise<ListenOutcome[]> {
  if (listens.length === 0) return [];
  if (listens.length <= RESOLVE_CHUNK) return groupCommitOf(ctx).submit({ userId, listens, source, size: listens.length });
  const tracks = await resolveListenTracks(ctx.db, ctx.config, listens);
  return inTransaction(ctx.db, (tx) => storeListens(tx, userId, listens, tracks, source));
}

/** One call of ingestListens small enough to share a transaction. */
interface SmallCall {
  userId: string;
  listens: readonly Listen[];
  source: ListenSource;
  size: number;
}

/** One per process and context, so one per database and configuration. */
const groupCommits = new WeakMap<AppContext, GroupCommit<SmallCall, ListenOutcome[]>>();

function groupCommitOf(ctx: AppContext): GroupCommit<SmallCall, ListenOutcome[]> {
  let group = groupCommits.get(ctx);
  if (!group) {
    // Up to RESOLVE_CHUNK listens a group, as for one call: one snapshot, one set of advisory
    // locks taken at once. PGlite runs one transaction at a time, so a second group in flight
    // would only wait there instead of growing; a server takes two, one forming while one commits.
    const limits = { capacity: RESOLVE_CHUNK, inFlight: connectionLimit(ctx.db) > 1 ? 2 : 1 };
    group = new GroupCommit((take) => storeTogether(ctx, take), limits);
    groupCommits.set(ctx, group);
  }
  return group;
}

/**
 * The calls `take` hands over once this transaction holds a connection, their listens matched as
 * one batch and stored in it; each call's outcomes in its order.
 */
function storeTogether(ctx: AppContext, take: () => readonly SmallCall[]): Promise<ListenOutcome[][]> {
  return inTransaction(ctx.db, async (tx) => {
    const calls = take();
    const plays = calls.flatMap(({ userId, listens, source }) => listens.map((listen) => ({ userId, listen, source })));
    const tracks = await resolveListenTracks(
      ctx.db,
      ctx.config,
      plays.map(({ listen }) => listen),
      tx,
    );
    const outcomes = await storePlays(tx, plays, tracks);
    let start = 0;
    return calls.map(({ size }) => {
      const own = outcomes.slice(start, start + size);
      start += size;
      return own;
    });
  });
}

/** A listen's catalog track, or why it has none. */
export type ListenTrack = ResolvedTrack | string;

/**
 * Stores listens whose tracks resolveListenTracks found, inside the caller's
 * transaction, so the caller's own writes (an import checkpoint) commit or
 * roll back together with the scrobbles.
 */
export async function storeListens(
  tx: Tx,
  userId: string,
  listens: readonly Listen[],
  tracks: readonly ListenTrack[],
  source: ListenSource,
  originTarget: string | null = null,
): Promise<ListenOutcome[]> {
  return storePlays(
    tx,
    listens.map((listen) => ({ userId, listen, source, originTarget })),
    tracks,
  );
}

/** What storeListensCounted answers: the new plays' count, and the row its caller's statement returned. */
export interface CountedStore<R> {
  stored: number;
  row: R;
}

/**
 * storeListens for a caller that needs only how many listens were new (an import batch): the
 * scrobbles go in as storeListens puts them (key order, the one duplicate rule, the outboxes and
 * the statistics triggers fed in this transaction), and the caller's own write runs in the same
 * statement. `alongside` is a data-modifying statement returning exactly one row, given the
 * count of new plays as an SQL expression; duplicates' ids are not looked up.
 */
export async function storeListensCounted<R>(
  tx: Tx,
  userId: string,
  listens: readonly Listen[],
  tracks: readonly ListenTrack[],
  source: ListenSource,
  alongside: (stored: RawBuilder<number>) => RawBuilder<unknown>,
): Promise<CountedStore<R>> {
  const matched = listens.flatMap((listen, i) => {
    const track = tracks[i]!;
    return typeof track === 'string' ? [] : [{ userId, listen, source, track }];
  });
  // One round trip: the insert, the caller's write and whether the stored plays need the
  // outboxes; their ids travel back only then. The outboxes are asked after the insert, in
  // this transaction, as outboxesOf asks them; every play is the one user's.
  const stored = sql<number>`(select count(*)::int from ins)`;
  const { rows } = await sql<R & { stored_plays: number; relay_outbox: boolean; webhook_outbox: boolean; stored_ids: string[] | null }>`
    with ins as (${scrobbleInsert(matched)} returning id),
      alongside as (${alongside(stored)}),
      outboxes as (${outboxesQuery(sql`select ${userId}::uuid`)})
    select alongside.*, ${stored} as stored_plays, o.relay as relay_outbox, o.webhooks as webhook_outbox,
      case when o.relay or o.webhooks then (select json_agg(id) from ins) end as stored_ids
    from alongside, outboxes o`.execute(tx);
  const { stored_plays, relay_outbox, webhook_outbox, stored_ids, ...row } = rows[0]!;
  await enqueueOutboxes(tx, { relay: relay_outbox, webhooks: webhook_outbox }, stored_ids ?? []);
  return { stored: stored_plays, row: row as R };
}

/** A listen on its way to the scrobbles table: whose, and which door it came in by. */
interface Play {
  userId: string;
  listen: Listen;
  source: ListenSource;
  /** A synced-in play (core/sync): the relay target at the service it came from, never relayed back there. */
  originTarget?: string | null;
}

/** storeListens for plays of any users and sources (a group commit's). */
async function storePlays(tx: Tx, plays: readonly Play[], tracks: readonly ListenTrack[]): Promise<ListenOutcome[]> {
  const matched = plays.flatMap((play, i) => {
    const track = tracks[i]!;
    return typeof track === 'string' ? [] : [{ ...play, track }];
  });
  const ids = await insertScrobbles(tx, matched);
  const claimed = new Set<string>();
  return tracks.map((track, i): ListenOutcome => {
    if (typeof track === 'string') return { status: 'ignored', reason: track };
    const key = playKey(plays[i]!.userId, track.trackId, plays[i]!.listen.listenedAt);
    const { scrobbleId, inserted } = ids.get(key)!;
    // Of several equal listens in one call (or group), only the first is the stored one.
    const status = inserted && !claimed.has(key) ? 'stored' : 'duplicate';
    claimed.add(key);
    return { status, scrobbleId, trackId: track.trackId, matched: track.matched };
  });
}

/**
 * Distinct listens matched per transaction. Each may create an artist, an
 * album and a track, so this bounds how long one transaction holds PGlite's
 * only connection (and, on PostgreSQL, how many advisory locks it takes).
 */
const RESOLVE_CHUNK = 20;

/**
 * Each listen's catalog track, or why it has none; equal metadata is resolved
 * once. Listens the catalog already knows (the common case, and all of a
 * re-import) are resolved together in one short transaction that takes no
 * advisory lock. Only the rest, which may create catalog entries, run in
 * transactions of RESOLVE_CHUNK distinct listens, each retried on its own:
 * finding or creating a catalog entry is idempotent, so a listen resolved in
 * a committed transaction stays resolved whatever happens next. Given `within`,
 * everything runs in that transaction instead, and its caller retries it whole.
 */
export async function resolveListenTracks(
  db: Database,
  config: Pick<Config, 'unmatchedScrobbles'>,
  listens: readonly Listen[],
  within?: Tx,
): Promise<ListenTrack[]> {
  const run = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => (within ? work(within) : inTransaction(db, work));
  const createUnmatched = config.unmatchedScrobbles === 'store';
  return byDistinctListen(listens, async (items) => {
    // A batch that fits one chunk (a single scrobble) is left whole to resolveTracks, which
    // settles its hits set-based too: a separate pass for them would only add a transaction.
    const tracks: (ResolvedTrack | null | undefined)[] = items.length > RESOLVE_CHUNK ? await run((tx) => resolveKnownTracks(tx, items)) : [];
    const misses = items.flatMap((_, i) => (tracks[i] ? [] : [i]));
    for (let start = 0; start < misses.length; start += RESOLVE_CHUNK) {
      const chunk = misses.slice(start, start + RESOLVE_CHUNK);
      const resolved = await run((tx) =>
        resolveTracks(
          tx,
          chunk.map((i) => items[i]!),
          createUnmatched,
        ),
      );
      chunk.forEach((item, j) => (tracks[item] = resolved[j]));
    }
    return tracks.map((track) => track ?? null);
  });
}

/** What matchKnownListens found: each listen's track (undefined: not in the catalog yet), and how to write the gaps they fill. */
export interface KnownListens {
  tracks: (ListenTrack | undefined)[];
  /** Writes the catalog gaps the matched listens fill, in the storing transaction. */
  fillGaps(tx: Tx): Promise<void>;
}

/**
 * resolveListenTracks for the listens the catalog already knows, matched against a snapshot read
 * with `reader` and nothing written yet: one snapshot and no advisory lock, however many they are.
 * An import batch matches this way before its storing transaction, which then writes the gaps
 * they fill. Undefined for a listen whose track must be created first (resolveListenTracks does
 * that in transactions of its own); under UNMATCHED_SCROBBLES=skip such a listen has its reason
 * instead.
 */
export async function matchKnownListens(reader: Database | Tx, config: Pick<Config, 'unmatchedScrobbles'>, listens: readonly Listen[]): Promise<KnownListens> {
  const createUnmatched = config.unmatchedScrobbles === 'store';
  let match: KnownMatch | undefined;
  const tracks = await byDistinctListen(listens, async (items) => {
    match = items.length > 0 ? await matchKnown(reader, items) : undefined;
    return (match?.tracks ?? []).map((track) => track ?? (createUnmatched ? undefined : null));
  });
  return { tracks, fillGaps: async (tx) => (match ? fillKnownGaps(tx, match) : undefined) };
}

/**
 * Each listen's track from `resolve`, which sees equal metadata once and never a listen the
 * rules refuse (ingest is the one door to the database, whatever the protocol checked): those
 * get their reason, and a null from `resolve` the catalog's.
 */
async function byDistinctListen<T extends ResolvedTrack | undefined>(
  listens: readonly Listen[],
  resolve: (items: Listen[]) => Promise<(T | null)[]>,
): Promise<(T | string)[]> {
  const reasons = listens.map((listen) => listenProblem(listen));
  const keys = listens.map(metadataCacheKey);
  const distinct = new Map<string, Listen>();
  listens.forEach((listen, i) => {
    if (!reasons[i] && !distinct.has(keys[i]!)) distinct.set(keys[i]!, listen);
  });
  const tracks = await resolve([...distinct.values()]);
  const resolved = new Map([...distinct.keys()].map((key, i) => [key, tracks[i]!]));
  return listens.map((_, i) => {
    if (reasons[i]) return reasons[i];
    const track = resolved.get(keys[i]!);
    return track === null ? 'no matching track in the catalog' : (track as T);
  });
}

const scrobbleKey = (trackId: string, listenedAt: Date) => `${trackId}@${listenedAt.getTime()}`;
const playKey = (userId: string, trackId: string, listenedAt: Date) => `${userId}/${scrobbleKey(trackId, listenedAt)}`;

/**
 * What storing a listen would do: as ListenOutcome, whether its song would be new to the
 * catalog, and the play's claim key (play-claims.ts).
 */
export type PreviewOutcome = { status: 'stored' | 'duplicate'; newSong: boolean; key: string } | { status: 'ignored'; reason: string };

/**
 * What ingesting these listens would do, writing nothing (an import's dry
 * run): the rules, a read-only match against the catalog, and a look for the
 * scrobbles already stored. A listen of a song the catalog lacks would be
 * stored with a new song (or ignored under UNMATCHED_SCROBBLES=skip); equal
 * listens in one call count once (PlayClaims), as storeListens counts them.
 */
export async function previewListens(
  db: Database,
  config: Pick<Config, 'unmatchedScrobbles'>,
  userId: string,
  listens: readonly Listen[],
): Promise<PreviewOutcome[]> {
  const reasons = listens.map((listen) => listenProblem(listen));
  const trackIds = await inTransaction(db, (tx) => matchKnownTracks(tx, listens));
  const known = listens.flatMap((listen, i) => (trackIds[i] && !reasons[i] ? [{ trackId: trackIds[i], listenedAt: listen.listenedAt }] : []));
  const stored = new Set<string>();
  if (known.length > 0) {
    const rows = await db
      .selectFrom('scrobbles')
      .select(['track_id', 'listened_at'])
      .where('user_id', '=', userId)
      .where('track_id', 'in', [...new Set(known.map(({ trackId }) => trackId))])
      .where(
        'listened_at',
        'in',
        known.map(({ listenedAt }) => listenedAt),
      )
      .execute();
    for (const row of rows) stored.add(scrobbleKey(row.track_id, row.listened_at));
  }
  const claims = new PlayClaims();
  return listens.map((listen, i): PreviewOutcome => {
    const reason = reasons[i];
    if (reason) return { status: 'ignored', reason };
    const trackId = trackIds[i];
    if (!trackId && config.unmatchedScrobbles !== 'store') return { status: 'ignored', reason: 'no matching track in the catalog' };
    const play = trackId ? scrobbleKey(trackId, listen.listenedAt) : `${metadataCacheKey(listen)}@${listen.listenedAt.getTime()}`;
    const key = claimKey(play);
    return { status: claims.claim(key, stored.has(play)), newSong: !trackId, key };
  });
}

type MatchedPlay = Play & { track: ResolvedTrack };

/** Rows in the order of the scrobbles_once key (user, track, time), the one order every writer inserts in. */
function inKeyOrder(rows: readonly MatchedPlay[]): MatchedPlay[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort(
    (a, b) => compare(a.userId, b.userId) || compare(a.track.trackId, b.track.trackId) || a.listen.listenedAt.getTime() - b.listen.listenedAt.getTime(),
  );
}

/**
 * Whether any of these users has a relay target or a webhook: most have neither, and then the
 * outbox statements are skipped. Asked in the storing transaction, so a target or hook another
 * process adds meanwhile is seen as it would be by the outbox statements themselves.
 */
async function outboxesOf(tx: Tx, userIds: readonly string[]): Promise<{ relay: boolean; webhooks: boolean }> {
  const ids = `{${userIds.join(',')}}`;
  const { rows } = await outboxesQuery(sql`select unnest(${ids}::uuid[])`).execute(tx);
  return rows[0]!;
}

/** outboxesOf's question as one row (relay, webhooks), for the users `userIds` (a query of user ids) selects. */
function outboxesQuery(userIds: RawBuilder<unknown>) {
  return sql<{ relay: boolean; webhooks: boolean }>`select exists (select 1 from relay_targets where user_id in (${userIds})) as relay,
    exists (select 1 from webhooks where user_id in (${userIds})) as webhooks`;
}

/** Stored plays per outbox statement: one bind parameter each, well under PostgreSQL's 65535. */
const OUTBOX_CHUNK = 1000;

/** Stored plays into the outboxes their users have (outboxesOf), in the storing transaction. */
async function enqueueOutboxes(tx: Tx, outboxes: { relay: boolean; webhooks: boolean }, storedIds: readonly string[]): Promise<void> {
  for (let start = 0; (outboxes.relay || outboxes.webhooks) && start < storedIds.length; start += OUTBOX_CHUNK) {
    const chunk = storedIds.slice(start, start + OUTBOX_CHUNK);
    // Relaying out (core/relay): the stored plays join the outbox in this same transaction.
    if (outboxes.relay) await enqueueRelayPlays(tx, chunk);
    // Webhooks (core/webhooks): the stored plays' deliveries, in this same transaction.
    if (outboxes.webhooks) await enqueueWebhookScrobbles(tx, chunk);
  }
}

/** The columns of a scrobble as the insert reads them from one JSON array (jsonb_to_recordset). */
const SCROBBLE_ROW = sql.raw('user_id uuid, track_id uuid, listened_at timestamptz, played_ms integer, submitted jsonb, source text, origin_target uuid');

/**
 * The insert of matched plays, without its returning clause: one statement whatever their number
 * (the rows travel as one JSON parameter), a listen already stored (scrobbles_once) left alone.
 */
function scrobbleInsert(rows: readonly MatchedPlay[]) {
  const values = inKeyOrder(rows).map(({ userId, listen, track, source, originTarget }) => ({
    user_id: userId,
    track_id: track.trackId,
    // As a string already: a Date's toJSON takes JSON.stringify off its fast path for every row.
    listened_at: listen.listenedAt.toISOString(),
    played_ms: listen.playedMs ?? null,
    submitted: listen.submitted ?? {},
    source,
    origin_target: originTarget ?? null,
  }));
  // jsonb_to_recordset yields the rows in array order, so they are inserted in key order.
  return sql`insert into scrobbles (user_id, track_id, listened_at, played_ms, submitted, source, origin_target)
    select user_id, track_id, listened_at, played_ms, submitted, source, origin_target
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as r(${SCROBBLE_ROW})
    on conflict on constraint scrobbles_once do nothing`;
}

/**
 * Inserts the scrobbles set-based, in one statement whatever their number (the rows travel as
 * one JSON parameter), and finds the ids of those already stored, keyed by playKey.
 * Rows go in key order: two writers inserting the same listens (a user's two
 * clients) then wait on each other's rows in one order and cannot deadlock.
 *
 * Where the plays go next, unseen in TypeScript: the statement trigger
 * scrobbles_stats_inserted (and _deleted, _updated for later changes) runs
 * stats_queue_inserted(), which appends each new play to the stats_queue table in
 * this same transaction (src/toolkit/db/migrations/0012_stats_rollups.sql). The
 * background job statsFoldJob, through foldBatch (src/core/stats/rollups/fold.ts),
 * then folds the queue into the rollups (stats_track_counts, stats_hours, the totals
 * and the year rows) that the statistics read (src/core/stats/rollups/reads.ts).
 */
async function insertScrobbles(tx: Tx, rows: readonly MatchedPlay[]): Promise<Map<string, { scrobbleId: string; inserted: boolean }>> {
  const ids = new Map<string, { scrobbleId: string; inserted: boolean }>();
  if (rows.length === 0) return ids;
  const { rows: inserted } = await sql<{ id: string; user_id: string; track_id: string; listened_at: Date }>`
    ${scrobbleInsert(rows)} returning id, user_id, track_id, listened_at`.execute(tx);
  for (const row of inserted) ids.set(playKey(row.user_id, row.track_id, row.listened_at), { scrobbleId: row.id, inserted: true });
  const outboxes = inserted.length > 0 ? await outboxesOf(tx, [...new Set(inserted.map((row) => row.user_id))]) : { relay: false, webhooks: false };
  await enqueueOutboxes(
    tx,
    outboxes,
    inserted.map((row) => row.id),
  );
  const missing = rows.filter(({ userId, listen, track }) => !ids.has(playKey(userId, track.trackId, listen.listenedAt)));
  if (missing.length === 0) return ids;
  const existing = await tx
    .selectFrom('scrobbles')
    .select(['id', 'user_id', 'track_id', 'listened_at'])
    .where('user_id', 'in', [...new Set(missing.map(({ userId }) => userId))])
    .where('track_id', 'in', [...new Set(missing.map(({ track }) => track.trackId))])
    .where(
      'listened_at',
      'in',
      missing.map(({ listen }) => listen.listenedAt),
    )
    .execute();
  for (const row of existing) {
    const key = playKey(row.user_id, row.track_id, row.listened_at);
    if (!ids.has(key)) ids.set(key, { scrobbleId: row.id, inserted: false });
  }
  return ids;
}

export type NowPlayingOutcome = { status: 'updated'; trackId: string } | { status: 'ignored'; reason: string };

/** Sets what the user is playing now; it expires after the track's duration (10 minutes when unknown). */
export async function updateNowPlaying(
  ctx: AppContext,
  userId: string,
  metadata: TrackMetadata & { submitted?: Record<string, unknown> | undefined },
): Promise<NowPlayingOutcome> {
  const reason = submissionProblem(metadata);
  if (reason) return { status: 'ignored', reason };
  const outcome = await inTransaction(ctx.db, async (tx): Promise<NowPlayingOutcome> => {
    const track = await resolveTrack(tx, metadata, ctx.config.unmatchedScrobbles === 'store');
    if (!track) return { status: 'ignored', reason: 'no matching track in the catalog' };
    const expiresAt = sql<Date>`now() + ${`${metadata.durationMs ?? NOW_PLAYING_FALLBACK_MS} milliseconds`}::interval`;
    const values = { track_id: track.trackId, submitted: JSON.stringify(metadata.submitted ?? {}), started_at: sql<Date>`now()`, expires_at: expiresAt };
    await tx
      .insertInto('now_playing')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    return { status: 'updated', trackId: track.trackId };
  });
  if (outcome.status === 'updated') nowPlayingStored(ctx, userId, outcome.trackId);
  return outcome;
}

/** A now-playing just committed: relayed to the user's services, and to live streams and webhooks (core/live, core/webhooks). */
export function nowPlayingStored(ctx: AppContext, userId: string, trackId: string): void {
  forwardNowPlaying(ctx, userId, trackId);
  announceNowPlaying(ctx, userId, trackId);
}

export interface NowPlaying {
  trackId: string;
  startedAt: Date;
  submitted: Record<string, unknown>;
}

/** The user's current track, if one was reported and has not run out. */
export async function currentNowPlaying(ctx: AppContext, userId: string): Promise<NowPlaying | null> {
  const row = await ctx.db
    .selectFrom('now_playing')
    .select(['track_id', 'started_at', 'submitted'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { trackId: row.track_id, startedAt: row.started_at, submitted: row.submitted } : null;
}
