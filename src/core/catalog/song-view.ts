import { sql, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { Database, TracksTable } from '../../toolkit/db/index.ts';
import { allTimePlayCount, queuedPerTrack, queuedPlaysOf } from '../stats/rollups/totals.ts';
import { songLiked, songLikesCount } from './likes.ts';
import { playStatsJoin, selectPage, type PageSelection, type SortKey } from './page-query.ts';
import { catalogUri } from './references.ts';
import { songArt } from '../song-art.ts';
import type { Song } from './schemas.ts';

export type TrackRow = Selectable<TracksTable>;

export interface TrackLikes {
  liked: boolean;
  likesCount: number;
}

/** A track row with the art songArt chose for it. */
export interface ArtedTrackRow extends TrackRow {
  song_art: string | null;
}

/** Plays of the track `t` of allSongs by everyone, to sort and filter by, from the all-time totals (one index probe a song). */
export const songPlayCount = allTimePlayCount(sql`track_id = t.id`, 'tq.plays');

export interface SongRow extends ArtedTrackRow, TrackLikes {
  play_count: number;
  unique_listeners: number;
}

/** A query over `tracks as t`, possibly joined, selecting every track column (see `allSongs`). */
// biome-ignore lint/suspicious/noExplicitAny: joins vary by caller; every one selects from tracks as t
export type SongSource = SelectQueryBuilder<any, any, any>;

/** Newest first; the id breaks ties so pages never overlap. */
export const NEWEST_FIRST: readonly SortKey[] = [
  { expression: sql.ref('t.created_at'), direction: 'desc' },
  { expression: sql.ref('t.id'), direction: 'desc' },
];

/** Every track, as `t`, with its queued plays as `tq` for songPlayCount (a join PostgreSQL drops where nothing reads it). */
export const allSongs = (db: Database): SongSource => db.selectFrom('tracks as t').leftJoin(queuedPerTrack().as('tq'), 'tq.id', 't.id').selectAll('t');

/**
 * Whether the track `alias` names was played or is in someone's library. Now-playing
 * reports and loves create catalog tracks too, but a track with only those is not
 * listed. Two index probes a row (scrobbles_track_user_idx, library_files_track_idx): `offset 0`
 * keeps PostgreSQL from planning the EXISTS as a hash of every scrobble, which it otherwise builds
 * for each query (6x slower on `npm run bench songs-filter`, and growing with the scrobbles).
 */
export const isListedSong = (alias = 't'): RawBuilder<SqlBool> => {
  const id = sql.ref(`${alias}.id`);
  return sql<SqlBool>`(exists (select 1 from scrobbles ls where ls.track_id = ${id} offset 0) or exists (select 1 from library_files lf where lf.track_id = ${id} offset 0))`;
};

/**
 * Whether the artist or album `alias` names has a listed song: listings show no artist or album
 * without one. `offset 0` for the reason given at isListedSong: probe, never hash all tracks.
 */
export const hasListedSong = (column: 'artist_id' | 'album_id', alias: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`exists (select 1 from tracks lt where ${sql.ref(`lt.${column}`)} = ${sql.ref(`${alias}.id`)} and ${isListedSong('lt')} offset 0)`;

/** The songs catalog listings show (getSongs, search, an artist's and an album's songs): see isListedSong. */
export const listedSongs = (db: Database): SongSource => allSongs(db).where(isListedSong());

/** Catalog values the database lacks are omitted from views, never null. */
export const present = <T>(value: T | null): T | undefined => value ?? undefined;

/** The catalog fields of a track (spec 2.3 and 2.4 share them); absent values are omitted. */
export function trackFields(track: ArtedTrackRow, likes: TrackLikes) {
  return {
    title: track.title,
    artist: track.artist,
    albumArtist: present(track.album_artist),
    album: present(track.album),
    albumArt: present(track.song_art),
    artistUri: track.artist_id ? catalogUri('artist', track.artist_id) : undefined,
    albumUri: track.album_id ? catalogUri('album', track.album_id) : undefined,
    duration: present(track.duration),
    trackNumber: present(track.track_number),
    discNumber: present(track.disc_number),
    sha256: present(track.sha256),
    mbid: present(track.mbid),
    mbId: present(track.mbid),
    isrc: present(track.isrc),
    tags: track.tags,
    streamingLinkA: present(track.streaming_link_a),
    videoLink: present(track.video_link),
    streamingLinkB: present(track.streaming_link_b),
    streamingLinkC: present(track.streaming_link_c),
    composer: present(track.composer),
    genre: present(track.genre),
    label: present(track.label),
    copyrightMessage: present(track.copyright_message),
    key: present(track.key),
    bpm: present(track.bpm),
    dbVersion: track.db_version,
    liked: likes.liked,
    likesCount: likes.likesCount,
    updatedAt: isoDateTime(track.updated_at),
  };
}

export function toSong(row: SongRow): Song {
  return {
    id: row.id,
    uri: row.uri,
    ...trackFields(row, row),
    playCount: row.play_count,
    uniqueListeners: row.unique_listeners,
    lyrics: present(row.lyrics),
    acoustidFingerprint: present(row.acoustid_fingerprint),
    createdAt: isoDateTime(row.created_at),
  };
}

/**
 * One page of songs from `source` with their play statistics and likes
 * (`liked` relative to `viewerId`), computed for the page's rows only.
 */
// biome-ignore lint/complexity/noBannedTypes: no extra columns unless the caller asks for them
export function selectSongs<Extra = {}>(db: Database, source: SongSource, selection: PageSelection, viewerId: string | null): Promise<(SongRow & Extra)[]> {
  const trackId = sql.ref('page.id');
  return selectPage<SongRow & Extra>(db, source, selection, {
    columns: sql`plays.play_count, plays.unique_listeners, ${songArt('page')} as song_art,
      ${songLikesCount(trackId)} as "likesCount", ${songLiked(trackId, viewerId)} as liked`,
    with: queuedPlaysOf(sql`select id from page`),
    joins: playStatsJoin(sql`track_id = page.id`),
  });
}
