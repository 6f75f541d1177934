import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { resolveTrack } from '../catalog/resolve.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';

export interface Listen extends TrackMetadata {
  listenedAt: Date;
  /** The client's own payload for this listen, stored verbatim so nothing is lost to matching. */
  submitted?: Record<string, unknown> | undefined;
}

export type ListenOutcome =
  | { status: 'stored' | 'duplicate'; scrobbleId: string; trackId: string; matched: boolean }
  | { status: 'ignored'; reason: string };

/** Where a listen came from: 'listenbrainz', 'lastfm', 'audioscrobbler', 'api', 'import:<format>'. */
export type ListenSource = string;

const NOW_PLAYING_FALLBACK_MS = 10 * 60 * 1000;
const MAX_FIELD_LENGTH = 1024;

/** Reasons a listen cannot be stored at all, whatever the protocol checked before. */
function invalidReason(listen: Listen): string | null {
  if (!listen.artist.trim()) return 'artist is empty';
  if (!listen.title.trim()) return 'title is empty';
  if (listen.artist.length > MAX_FIELD_LENGTH || listen.title.length > MAX_FIELD_LENGTH || (listen.album?.length ?? 0) > MAX_FIELD_LENGTH) {
    return `artist, title and album must be at most ${MAX_FIELD_LENGTH} characters`;
  }
  if (Number.isNaN(listen.listenedAt.getTime())) return 'timestamp is invalid';
  return null;
}

function metadataCacheKey(listen: TrackMetadata): string {
  return JSON.stringify([listen.artist, listen.title, listen.album, listen.mbid, listen.isrc]);
}

/**
 * Stores listens for one user in one transaction: each is matched against the
 * catalog (created there when missing, unless UNMATCHED_SCROBBLES=skip), and
 * a listen already stored (same user, track and time) is reported as a duplicate.
 * Outcomes are in input order.
 */
export async function ingestListens(
  ctx: AppContext,
  userId: string,
  listens: readonly Listen[],
  source: ListenSource,
): Promise<ListenOutcome[]> {
  const createUnmatched = ctx.config.unmatchedScrobbles === 'store';
  return ctx.db.transaction().execute(async (tx) => {
    const resolved = new Map<string, Awaited<ReturnType<typeof resolveTrack>>>();
    const outcomes: ListenOutcome[] = [];
    for (const listen of listens) {
      const reason = invalidReason(listen);
      if (reason) {
        outcomes.push({ status: 'ignored', reason });
        continue;
      }
      const cacheKey = metadataCacheKey(listen);
      if (!resolved.has(cacheKey)) resolved.set(cacheKey, await resolveTrack(tx, listen, createUnmatched));
      const track = resolved.get(cacheKey);
      if (!track) {
        outcomes.push({ status: 'ignored', reason: 'no matching track in the catalog' });
        continue;
      }
      const inserted = await tx
        .insertInto('scrobbles')
        .values({
          user_id: userId,
          track_id: track.trackId,
          listened_at: listen.listenedAt,
          submitted: JSON.stringify(listen.submitted ?? {}),
          source,
        })
        .onConflict((oc) => oc.constraint('scrobbles_once').doNothing())
        .returning('id')
        .executeTakeFirst();
      const scrobbleId =
        inserted?.id ??
        (
          await tx
            .selectFrom('scrobbles')
            .select('id')
            .where('user_id', '=', userId)
            .where('track_id', '=', track.trackId)
            .where('listened_at', '=', listen.listenedAt)
            .executeTakeFirstOrThrow()
        ).id;
      outcomes.push({ status: inserted ? 'stored' : 'duplicate', scrobbleId, trackId: track.trackId, matched: track.matched });
    }
    return outcomes;
  });
}

export type NowPlayingOutcome = { status: 'updated'; trackId: string } | { status: 'ignored'; reason: string };

/** Sets what the user is playing now; it expires after the track's duration (10 minutes when unknown). */
export async function updateNowPlaying(
  ctx: AppContext,
  userId: string,
  metadata: TrackMetadata & { submitted?: Record<string, unknown> | undefined },
): Promise<NowPlayingOutcome> {
  const reason = invalidReason({ ...metadata, listenedAt: new Date() });
  if (reason) return { status: 'ignored', reason };
  return ctx.db.transaction().execute(async (tx) => {
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
