import { sql, type ExpressionBuilder } from 'kysely';
import { conflict, invalidRequest, notFound } from '../../toolkit/errors.ts';
import { artistKey, titleKey } from '../catalog/normalize.ts';
import type { AppContext } from '../context.ts';
import type { Database, DB } from '../../toolkit/db/index.ts';
import { resolveListenTracks } from './ingest.ts';
import { listenedAtProblem, listenProblem } from './listen-rules.ts';

/**
 * Removing and correcting a user's own plays. A change here shows everywhere
 * at once: lists of plays (feeds) read the scrobbles table, and statistics
 * (counts, charts, Wrapped) read the rollups plus the queue of changes not yet
 * folded into them (src/core/stats/rollups/), which a trigger on scrobbles fills in
 * the same transaction as the change. The client's original record
 * (`submitted`) is never rewritten: a corrected play is marked by `edited_at`
 * instead.
 */

/** Deletes one of the user's plays; false when the user has no play with that id. */
export async function deleteOwnScrobble(db: Database, userId: string, scrobbleId: string): Promise<boolean> {
  const result = await db.deleteFrom('scrobbles').where('id', '=', scrobbleId).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The latest unix second a play can be stored at (year 9999); PostgreSQL and JavaScript dates both reach it. */
const MAX_UNIX_SECONDS = 253_402_300_799;

/** Which song a protocol names the play by: our catalog id (ListenBrainz's recording_msid), or artist and title (Last.fm). */
export type PlayedSong = { trackId: string } | { artist: string; title: string };

/** Whether a scrobble is a play of `song`; names match by the catalog's artist and title keys, as matching does. */
function isPlayOf(eb: ExpressionBuilder<DB, 'scrobbles'>, song: PlayedSong) {
  if ('trackId' in song) return eb('scrobbles.track_id', '=', song.trackId);
  return eb.exists(
    eb
      .selectFrom('tracks as t')
      .innerJoin('artists as a', 'a.id', 't.artist_id')
      .select('t.id')
      .whereRef('t.id', '=', 'scrobbles.track_id')
      .where('t.title_key', '=', titleKey(song.title))
      .where('a.name_key', '=', artistKey(song.artist)),
  );
}

/**
 * Deletes the user's plays of `song` within the whole second `seconds`, as the
 * protocols name a listen (their times are whole seconds, ours may carry
 * milliseconds), so a client may use the time and names it scrobbled with.
 * Without a song, every play in that second goes: Maloja names a scrobble by
 * its time alone (its primary key). Returns how many went.
 */
export async function deletePlaysAt(db: Database, userId: string, seconds: number, song?: PlayedSong): Promise<number> {
  // Nothing can be stored outside these bounds, and such a time would only make the database fail.
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_UNIX_SECONDS) return 0;
  const result = await db
    .deleteFrom('scrobbles')
    .where('user_id', '=', userId)
    .where('listened_at', '>=', new Date(seconds * 1000))
    .where('listened_at', '<', new Date((seconds + 1) * 1000))
    .$if(song !== undefined, (query) => query.where((eb) => isPlayOf(eb, song!)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * What updateScrobble may change: the time, the song by id or by corrected names (not both), and
 * how long the play lasted (a player says so when the play ends: not a correction, so the play is
 * not marked edited for it).
 */
export interface PlayCorrection {
  listenedAt?: Date | undefined;
  playedMs?: number | undefined;
  trackId?: string | undefined;
  artist?: string | undefined;
  title?: string | undefined;
  album?: string | undefined;
}

interface OwnPlay {
  trackId: string;
  listenedAt: Date;
  artist: string;
  title: string;
  album: string | null;
}

async function ownPlay(db: Database, userId: string, scrobbleId: string): Promise<OwnPlay> {
  const row = await db
    .selectFrom('scrobbles as s')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .select(['s.track_id', 's.listened_at', 't.artist', 't.title', 't.album'])
    .where('s.id', '=', scrobbleId)
    .where('s.user_id', '=', userId)
    .executeTakeFirst();
  // Another user's play is answered exactly like a missing one: ids reveal nothing.
  if (!row) throw notFound(`you have no scrobble ${scrobbleId}`);
  return { trackId: row.track_id, listenedAt: row.listened_at, artist: row.artist, title: row.title, album: row.album };
}

function requireCorrection(change: PlayCorrection): void {
  const renames = change.artist !== undefined || change.title !== undefined || change.album !== undefined;
  if (change.trackId !== undefined && renames) throw invalidRequest('give either trackId or corrected artist/title/album, not both');
  if (change.listenedAt === undefined && change.trackId === undefined && change.playedMs === undefined && !renames) {
    throw invalidRequest('nothing to change: give listenedAt, trackId, a corrected artist, title or album, or playedMs');
  }
  const problem = change.listenedAt && listenedAtProblem(change.listenedAt);
  if (problem) throw invalidRequest(problem);
}

async function existingSong(db: Database, trackId: string): Promise<string> {
  const row = await db.selectFrom('tracks').select('id').where('id', '=', trackId).executeTakeFirst();
  if (!row) throw notFound(`no song ${trackId}`);
  return row.id;
}

/**
 * The song corrected names lead to, through the one matcher exactly as a new
 * listen's would (created in the catalog when missing, unless
 * UNMATCHED_SCROBBLES=skip). Names not given are kept from the current song;
 * its identifiers are not, as they belong to the song being corrected away from.
 */
async function renamedSong(ctx: AppContext, play: OwnPlay, change: PlayCorrection, listenedAt: Date): Promise<string> {
  const listen = {
    artist: change.artist ?? play.artist,
    title: change.title ?? play.title,
    album: change.album ?? play.album ?? undefined,
    listenedAt,
  };
  const problem = listenProblem(listen);
  if (problem) throw invalidRequest(problem);
  const [track] = await resolveListenTracks(ctx.db, ctx.config, [listen]);
  if (typeof track !== 'object') throw notFound(`no song in the catalog matches ${listen.artist} - ${listen.title}`);
  return track.trackId;
}

const isDuplicatePlay = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/**
 * Applies a correction to one of the user's plays: 404 for another user's or
 * a missing play, 409 DuplicateScrobble when the user already has a play of
 * that song at that time (then nothing changes).
 */
export async function correctOwnScrobble(ctx: AppContext, userId: string, scrobbleId: string, change: PlayCorrection): Promise<void> {
  requireCorrection(change);
  const play = await ownPlay(ctx.db, userId, scrobbleId);
  const listenedAt = change.listenedAt ?? play.listenedAt;
  const renamed = change.artist !== undefined || change.title !== undefined || change.album !== undefined;
  const trackId =
    change.trackId !== undefined ? await existingSong(ctx.db, change.trackId) : renamed ? await renamedSong(ctx, play, change, listenedAt) : play.trackId;
  const moved = trackId !== play.trackId || listenedAt.getTime() !== play.listenedAt.getTime();
  if (!moved && change.playedMs === undefined) return;
  try {
    // One statement: the unique key (user, song, time) itself refuses a duplicate, even one written meanwhile.
    const updated = await ctx.db
      .updateTable('scrobbles')
      .set({
        ...(moved && { track_id: trackId, listened_at: listenedAt, edited_at: sql<Date>`now()` }),
        ...(change.playedMs !== undefined && { played_ms: change.playedMs }),
      })
      .where('id', '=', scrobbleId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw notFound(`you have no scrobble ${scrobbleId}`);
  } catch (error) {
    if (isDuplicatePlay(error)) throw conflict('DuplicateScrobble', 'you already have a play of that song at that time');
    throw error;
  }
}
