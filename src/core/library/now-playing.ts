import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';
import { ingestListens, updateNowPlaying } from '../scrobbling/ingest.ts';
import { invalidParameter } from './errors.ts';
import { knownSongs } from './known-ids.ts';
import { songViews, type SongView } from './views.ts';

/**
 * Plays and now playing from the library's side: a client names a song by id, and the one
 * ingest service (scrobbling/ingest.ts) records it with the song's catalog metadata, which
 * matches that same song, exactly as a scrobble of it from any other protocol would.
 */

const opt = <T>(value: T | null): T | undefined => value ?? undefined;

/** The catalog's metadata of each song, in the order of `trackIds` (which must exist). */
async function catalogMetadata(db: Database, trackIds: readonly string[]): Promise<TrackMetadata[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select([
      't.id',
      't.title',
      't.artist',
      't.album',
      't.album_artist',
      't.duration',
      't.track_number',
      't.disc_number',
      't.mbid',
      't.isrc',
      'ar.mbid as artist_mbid',
      'al.mbid as album_mbid',
    ])
    .where('t.id', 'in', [...new Set(trackIds)])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return trackIds.map((id) => {
    const row = byId.get(id)!;
    return {
      artist: row.artist,
      title: row.title,
      album: opt(row.album),
      albumArtist: opt(row.album_artist),
      durationMs: opt(row.duration),
      trackNumber: opt(row.track_number),
      discNumber: opt(row.disc_number),
      mbid: opt(row.mbid),
      artistMbid: opt(row.artist_mbid),
      albumMbid: opt(row.album_mbid),
      isrc: opt(row.isrc),
    };
  });
}

/** Sets the song the user is playing now. */
export async function setNowPlaying(ctx: AppContext, userId: string, songId: string, client: string): Promise<void> {
  const [id] = await knownSongs(ctx.db, [songId]);
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
 * ingest service, so a play sent twice (same song, same time) is stored once. A play the
 * ingest rules refuse (a time more than a day ahead) fails the call with their reason.
 */
export async function recordPlays(ctx: AppContext, userId: string, plays: readonly LibraryPlay[], client: string): Promise<void> {
  const ids = await knownSongs(
    ctx.db,
    plays.map((play) => play.songId),
  );
  const metadata = await catalogMetadata(ctx.db, ids);
  const now = new Date();
  const listens = plays.map((play, i) => ({ ...metadata[i]!, listenedAt: play.at ?? now, submitted: { id: ids[i], client } }));
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
