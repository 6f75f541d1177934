import { sql, type Selectable, type SqlBool } from 'kysely';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { AlbumsTable, ArtistsTable, Database } from '../../toolkit/db/index.ts';
import { allTimePlayCount, queuedPerGroup, queuedPlaysOf } from '../stats/rollups/totals.ts';
import { playStatsJoin, selectPage, type PageSelection } from './page-query.ts';
import { catalogUri } from './references.ts';
import { present } from './song-view.ts';
import type { AlbumView, ArtistView } from './schemas.ts';

/** Artists and albums group songs: their statistics add up the plays of their tracks. */

interface PlayStats {
  play_count: number;
  unique_listeners: number;
}

export type ArtistRow = Selectable<ArtistsTable>;
export type AlbumRow = Selectable<AlbumsTable>;

export function artistFields(row: ArtistRow) {
  return {
    id: row.id,
    uri: row.uri,
    name: row.name,
    picture: present(row.picture),
    mbid: present(row.mbid),
    genres: row.genres,
    createdAt: isoDateTime(row.created_at),
  };
}

const toArtistView = (row: ArtistRow & PlayStats): ArtistView => ({
  ...artistFields(row),
  playCount: row.play_count,
  uniqueListeners: row.unique_listeners,
});

export function albumFields(row: AlbumRow) {
  return {
    id: row.id,
    uri: row.uri,
    title: row.title,
    artist: row.artist,
    artistUri: row.artist_id ? catalogUri('artist', row.artist_id) : undefined,
    albumArt: present(row.album_art),
    mbid: present(row.mbid),
    releaseDate: present(row.release_date),
    year: present(row.year),
    genre: present(row.genre),
    label: present(row.label),
    createdAt: isoDateTime(row.created_at),
  };
}

const toAlbumView = (row: AlbumRow & PlayStats): AlbumView => ({
  ...albumFields(row),
  playCount: row.play_count,
  uniqueListeners: row.unique_listeners,
});

/** The tracks of the artist or album whose id is `id`: their totals are summed through tracks' artist_id and album_id indexes. */
const tracksOf = (column: 'artist_id' | 'album_id', id: string) =>
  sql<SqlBool>`track_id in (select gt.id from tracks gt where ${sql.ref(`gt.${column}`)} = ${sql.ref(id)})`;

const groupStats = (column: 'artist_id' | 'album_id') => ({
  columns: sql`plays.play_count, plays.unique_listeners`,
  with: queuedPlaysOf(sql`select gt.id from tracks gt where ${sql.ref(`gt.${column}`)} in (select id from page)`),
  joins: playStatsJoin(tracksOf(column, 'page.id')),
});

/** Plays of an artist's (`ar.id`) tracks, to sort by, in selectArtists (`arq` its queued plays). */
export const artistPlayCount = allTimePlayCount(tracksOf('artist_id', 'ar.id'), 'arq.plays');

/** Plays of an album's (`al.id`) tracks, to sort by, in selectAlbums (`alq` its queued plays). */
export const albumPlayCount = allTimePlayCount(tracksOf('album_id', 'al.id'), 'alq.plays');

/** A page of `artists as ar` with play statistics. */
export async function selectArtists(db: Database, selection: PageSelection): Promise<ArtistView[]> {
  const rows = await selectPage<ArtistRow & PlayStats>(
    db,
    db.selectFrom('artists as ar').leftJoin(queuedPerGroup('artist_id').as('arq'), 'arq.id', 'ar.id').selectAll('ar'),
    selection,
    groupStats('artist_id'),
  );
  return rows.map(toArtistView);
}

/** A page of `albums as al` with play statistics. */
export async function selectAlbums(db: Database, selection: PageSelection): Promise<AlbumView[]> {
  const rows = await selectPage<AlbumRow & PlayStats>(
    db,
    db.selectFrom('albums as al').leftJoin(queuedPerGroup('album_id').as('alq'), 'alq.id', 'al.id').selectAll('al'),
    selection,
    groupStats('album_id'),
  );
  return rows.map(toAlbumView);
}
