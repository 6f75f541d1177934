import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { albumTrackIds } from './playable.ts';
import { libraryNotFound } from './errors.ts';
import { knownIds } from './known-ids.ts';
import { albumViews, artistViews, hasPlayableFile, songViews, type AlbumView, type ArtistView, type SongView } from './views.ts';

/**
 * The library browsed by artist and album: only what has a file the user can play (the server's
 * music folder and their own file hosts), counted over those files. The same views the Subsonic
 * ID3 methods answer with, plus the catalog's picture or album art where it knows one.
 */

export interface Page {
  limit: number;
  offset: number;
}

export type LibraryArtist = ArtistView & { songCount: number; picture?: string };
export type LibraryAlbum = AlbumView & { albumArt?: string };

/** An album's or track's artist as the ID3 browsing files it: the album artist when there is an album. */
const filedArtist = sql<string>`coalesce(al.artist_id, t.artist_id)`;

/** Playable songs per artist, counted once for the whole page. */
function playableSongsPerArtist(db: Database, userId: string) {
  return db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select([filedArtist.as('artist_id'), sql<number>`count(*)::int`.as('song_count')])
    .where(hasPlayableFile(sql.ref('t.id'), userId))
    .where(filedArtist, 'is not', null)
    .groupBy(filedArtist)
    .as('ps');
}

/** A page of the library's artists, by name. */
export async function libraryArtists(db: Database, userId: string, page: Page): Promise<LibraryArtist[]> {
  const rows = await db
    .selectFrom('artists as ar')
    .innerJoin(playableSongsPerArtist(db, userId), 'ps.artist_id', 'ar.id')
    .select(['ar.id', 'ar.picture', 'ps.song_count'])
    .orderBy('ar.name_key')
    .orderBy('ar.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const views = await artistViews(
    db,
    userId,
    rows.map((row) => row.id),
  );
  return views.map((view) => {
    const { song_count, picture } = byId.get(view.id)!;
    return { ...view, songCount: song_count, ...(picture ? { picture } : {}) };
  });
}

/**
 * A page of the library's albums: by title, or one artist's by year then title. An artist id the
 * catalog does not know is NotFound; a known artist with nothing playable has no albums here.
 */
export async function libraryAlbums(db: Database, userId: string, page: Page, artistId?: string): Promise<LibraryAlbum[]> {
  let query = db
    .selectFrom('albums as al')
    .select(['al.id', 'al.album_art'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracks as t')
          .select('t.id')
          .whereRef('t.album_id', '=', 'al.id')
          .where(hasPlayableFile(sql.ref('t.id'), userId)),
      ),
    );
  if (artistId !== undefined) {
    const [known] = await knownIds(db, 'artist', [artistId]);
    query = query.where('al.artist_id', '=', known!).orderBy(sql`al.year nulls last`);
  }
  return withAlbumArt(db, userId, await query.orderBy('al.title_key').orderBy('al.id').limit(page.limit).offset(page.offset).execute());
}

/** Album views of the rows, in their order, each with the catalog's album art when it has one. */
async function withAlbumArt(db: Database, userId: string, rows: { id: string; album_art: string | null }[]): Promise<LibraryAlbum[]> {
  const art = new Map(rows.map((row) => [row.id, row.album_art]));
  const views = await albumViews(
    db,
    userId,
    rows.map((row) => row.id),
  );
  return views.map((view) => {
    const albumArt = art.get(view.id);
    return albumArt ? { ...view, albumArt } : view;
  });
}

/** One album of the library with its playable songs, by disc and track; NotFound when the user can play none of it. */
export async function libraryAlbum(db: Database, userId: string, id: string): Promise<LibraryAlbum & { song: SongView[] }> {
  const [known] = await knownIds(db, 'album', [id]);
  const rows = await db.selectFrom('albums').select(['id', 'album_art']).where('id', '=', known!).execute();
  const [album] = await withAlbumArt(db, userId, rows);
  if (!album || album.songCount === 0) throw libraryNotFound(`no album ${id} in your library`);
  return { ...album, song: await songViews(db, userId, await albumTrackIds(db, userId, known!)) };
}
