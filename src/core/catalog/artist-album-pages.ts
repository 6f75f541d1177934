/** An artist's and an album's page: the entry with its play statistics, and its most played (or ordered) songs and albums. */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { notFound } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { albumPlayCount, selectAlbums, selectArtists } from './group-view.ts';
import type { TopPage } from './actor-top.ts';
import type { SortKey } from './page-query.ts';
import type { AlbumView, Song } from './schemas.ts';
import { hasListedSong, listedSongs, selectSongs, songPlayCount, toSong } from './song-view.ts';

const TOP_COUNT = 10;
/** More tracks than any real release has; bounds the response all the same. */
export const MAX_ALBUM_TRACKS = 1000;

const mostPlayed = (playCount: RawBuilder<unknown>, id: string): SortKey[] => [
  { expression: playCount, direction: 'desc' },
  { expression: sql.ref(id), direction: 'asc' },
];

/** The artist's listed songs, most played (by everyone) first; `liked` is relative to `viewerId`. */
export async function artistTopSongs(db: Database, id: string, page: TopPage, viewerId: string | null): Promise<Song[]> {
  const songs = await selectSongs(db, listedSongs(db), { where: sql`t.artist_id = ${id}`, order: mostPlayed(songPlayCount, 't.id'), ...page }, viewerId);
  return songs.map(toSong);
}

const listedAlbumsOf = (id: string) => sql<SqlBool>`al.artist_id = ${id} and ${hasListedSong('album_id', 'al')}`;

/** The artist's albums with a listed song, most played first. */
export function artistTopAlbums(db: Database, id: string, page: TopPage): Promise<AlbumView[]> {
  return selectAlbums(db, { where: listedAlbumsOf(id), order: mostPlayed(albumPlayCount, 'al.id'), ...page });
}

/** How many songs and albums the artist's full lists (artistTopSongs, artistTopAlbums) hold, for paging. */
export async function artistListSizes(db: Database, id: string): Promise<{ songs: number; albums: number }> {
  const [songs, albums] = await Promise.all([
    listedSongs(db)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('t.artist_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('albums as al')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(listedAlbumsOf(id))
      .executeTakeFirstOrThrow(),
  ]);
  return { songs: Number(songs.n), albums: Number(albums.n) };
}

/** The artist `id` with their most played songs and albums; `liked` is relative to `viewerId`. */
export async function artistPage(db: Database, id: string, viewerId: string | null) {
  const [artist] = await selectArtists(db, { where: sql`ar.id = ${id}`, order: [], limit: 1 });
  if (!artist) throw notFound(`no artist ${id}`);
  const top = { limit: TOP_COUNT, offset: 0 };
  const [topSongs, topAlbums] = await Promise.all([artistTopSongs(db, id, top, viewerId), artistTopAlbums(db, id, top)]);
  return { artist, topSongs, topAlbums };
}

/** Disc by disc, track by track; unnumbered tracks last, by title. */
export const ALBUM_ORDER: SortKey[] = [
  { expression: sql`t.disc_number is null`, direction: 'asc' },
  { expression: sql.ref('t.disc_number'), direction: 'asc' },
  { expression: sql`t.track_number is null`, direction: 'asc' },
  { expression: sql.ref('t.track_number'), direction: 'asc' },
  { expression: sql.ref('t.title'), direction: 'asc' },
  { expression: sql.ref('t.id'), direction: 'asc' },
];

/** The album `id` with its tracks in disc and track order; `liked` is relative to `viewerId`. */
export async function albumPage(db: Database, id: string, viewerId: string | null) {
  const [album] = await selectAlbums(db, { where: sql`al.id = ${id}`, order: [], limit: 1 });
  if (!album) throw notFound(`no album ${id}`);
  const tracks = await selectSongs(db, listedSongs(db), { where: sql`t.album_id = ${id}`, order: ALBUM_ORDER, limit: MAX_ALBUM_TRACKS }, viewerId);
  return { album, tracks: tracks.map(toSong) };
}
