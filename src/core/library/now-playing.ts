import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { ingestListens, updateNowPlaying } from '../scrobbling/ingest.ts';
import { catalogMetadata } from './catalog-metadata.ts';
import { invalidParameter } from './errors.ts';
import { knownSongs } from './known-ids.ts';
import { keepsSession, sessionPlays } from './playback.ts';
import { songViews, type SongView } from './views.ts';

/**
 * Plays and now playing from the library's side: a client names a song by id, and the one
 * ingest service (scrobbling/ingest.ts) records it with the song's catalog metadata, which
 * matches that same song, exactly as a scrobble of it from any other protocol would.
 */

/** Sets the song the user is playing now. */
export async function setNowPlaying(ctx: AppContext, userId: string, songId: string, client: string): Promise<void> {
  const [id] = await knownSongs(ctx.db, [songId]);
  // A client reporting playback (playback.ts) may also say now playing the old way: its session goes on.
  if (await keepsSession(ctx, userId, id!)) return;
  const [metadata] = await catalogMetadata(ctx.db, [id!]);
  const outcome = await updateNowPlaying(ctx, userId, { ...metadata!, submitted: { id, client } });
  if (outcome.status === 'ignored') throw invalidParameter(outcome.reason);
}

export interface LibraryPlay {
  songId: string;
  /** When the play happened; now when absent. */
  at?: Date | undefined;
}

/**
 * Stores plays of songs, as Subsonic's scrobble with submission=true does: through the one
 * ingest service, so a play sent twice (same song, same time) is stored once. A play of the song
 * of the user's playback session is that session's play (playback.ts), at its time. A play the
 * ingest rules refuse (a time more than a day ahead) fails the call with their reason.
 */
export async function recordPlays(ctx: AppContext, userId: string, plays: readonly LibraryPlay[], client: string): Promise<void> {
  const ids = await knownSongs(
    ctx.db,
    plays.map((play) => play.songId),
  );
  const metadata = await catalogMetadata(ctx.db, ids);
  const inSession = await sessionPlays(ctx.db, userId);
  const now = new Date();
  const listens = plays.map((play, i) => {
    const { at, playedMs } = inSession(ids[i]!, play.at ?? now);
    return { ...metadata[i]!, listenedAt: at, playedMs, submitted: { id: ids[i], client } };
  });
  const refused = (await ingestListens(ctx, userId, listens, 'subsonic')).find((outcome) => outcome.status === 'ignored');
  if (refused?.status === 'ignored') throw invalidParameter(refused.reason);
}

/** Subsonic's `NowPlayingEntry`: a song with who plays it. */
export type NowPlayingEntry = SongView & { username: string; minutesAgo: number; playerId: number };

/** What every user is playing now, most recent first, as songs the caller sees. */
export async function nowPlayingEntries(db: Database, viewerId: string): Promise<NowPlayingEntry[]> {
  const rows = await db
    .selectFrom('now_playing as np')
    .innerJoin('users as u', 'u.id', 'np.user_id')
    .select(['np.track_id', 'u.handle', sql<number>`floor(extract(epoch from (now() - np.started_at)) / 60)::int`.as('minutes_ago')])
    .where('np.expires_at', '>', sql<Date>`now()`)
    .orderBy('np.started_at', 'desc')
    .orderBy('u.handle')
    .execute();
  const songs = new Map(
    (
      await songViews(
        db,
        viewerId,
        rows.map((row) => row.track_id),
      )
    ).map((song) => [song.id, song]),
  );
  return rows.flatMap((row) => {
    const song = songs.get(row.track_id);
    return song ? [{ ...song, username: row.handle, minutesAgo: Math.max(0, row.minutes_ago), playerId: 0 }] : [];
  });
}
