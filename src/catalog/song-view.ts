import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import { isoDateTime } from '../api/schemas.ts';
import type { Database, TracksTable } from '../db/index.ts';
import { songLiked, songLikesCount } from './likes.ts';
import { playStatsJoin, selectPage, type PageSelection, type SortKey } from './page-query.ts';
import { catalogUri } from './references.ts';
import type { Song } from './schemas.ts';

export type TrackRow = Selectable<TracksTable>;

export interface TrackLikes {
  liked: boolean;
  likesCount: number;
}

export interface SongRow extends TrackRow, TrackLikes {
  play_count: number;
  unique_listeners: number;
}

/** A query over `tracks as t`, possibly joined, selecting every track column (see `allSongs`). */
export type SongSource = SelectQueryBuilder<any, any, any>;

/** Newest first; the id breaks ties so pages never overlap. */
export const NEWEST_FIRST: readonly SortKey[] = [
  { expression: sql.ref('t.created_at'), direction: 'desc' },
  { expression: sql.ref('t.id'), direction: 'desc' },
];

export const allSongs = (db: Database): SongSource => db.selectFrom('tracks as t').selectAll('t');

/** Catalog values the database lacks are omitted from views, never null. */
export const present = <T>(value: T | null): T | undefined => value ?? undefined;

/** The catalog fields of a track (spec 2.3 and 2.4 share them); absent values are omitted. */
export function trackFields(track: TrackRow, likes: TrackLikes) {
  return {
    title: track.title,
    artist: track.artist,
    albumArtist: present(track.album_artist),
    album: present(track.album),
    albumArt: present(track.album_art),
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
export function selectSongs<Extra = {}>(
  db: Database,
  source: SongSource,
  selection: PageSelection,
  viewerId: string | null,
): Promise<(SongRow & Extra)[]> {
  const trackId = sql.ref('page.id');
  return selectPage<SongRow & Extra>(db, source, selection, {
    columns: sql`plays.play_count, plays.unique_listeners,
      ${songLikesCount(trackId)} as "likesCount", ${songLiked(trackId, viewerId)} as liked`,
    joins: playStatsJoin(sql`where s.track_id = page.id`),
  });
}
