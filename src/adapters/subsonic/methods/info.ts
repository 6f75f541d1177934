import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { currentId } from '../../../core/catalog/aliases.ts';
import { libraryNotFound } from '../../../core/library/errors.ts';
import { catalogParam, uuidParam } from '../args.ts';
import { visibleDirectory } from '../folders.ts';
import { textElement } from '../format.ts';
import { defineSubsonicMethod } from '../method.ts';
import { albumOrNotFound, artistOrNotFound } from './id3.ts';

/**
 * getArtistInfo(2) and getAlbumInfo(2): what the catalog knows, nothing invented. The MusicBrainz
 * id (from tags or enrichment) and the catalog's picture: an album's art is the cover enrichment
 * kept (/covers/<album id>) or the library's (/library/covers/<track id>), public addresses an
 * image loader fetches without the credentials a getCoverArt URL would have to carry; an artist's
 * is the picture an admin gave it. Earshot keeps one picture, so it stands for all three sizes. No
 * outside service is asked, so there is no biography, no notes, no Last.fm link and no similar
 * artists; what is unknown is left out.
 */

const imageUrls = (url: string | null) => {
  const image = textElement(url);
  return { smallImageUrl: image, mediumImageUrl: image, largeImageUrl: image };
};

async function artistInfo(db: Database, userId: string, artistId: string) {
  const artist = await artistOrNotFound(db, userId, artistId);
  const { picture } = await db.selectFrom('artists').select('picture').where('id', '=', artist.id).executeTakeFirstOrThrow();
  return { musicBrainzId: textElement(artist.musicBrainzId), ...imageUrls(picture) };
}

async function albumInfo(db: Database, userId: string, albumId: string) {
  const album = await albumOrNotFound(db, userId, albumId);
  const { album_art } = await db.selectFrom('albums').select('album_art').where('id', '=', album.id).executeTakeFirstOrThrow();
  return { musicBrainzId: textElement(album.musicBrainzId), ...imageUrls(album_art) };
}

/**
 * The artist or album a directory stands for: the one most of its songs, and its subdirectories'
 * songs, belong to (an artist folder holds album folders; an album folder holds the songs).
 */
async function directoryEntry(db: Database, userId: string, id: string, column: 't.artist_id' | 't.album_id'): Promise<string | undefined> {
  if (!(await visibleDirectory(db, userId, id))) return undefined;
  const row = await db
    .selectFrom('library_files as f')
    .innerJoin('tracks as t', 't.id', 'f.track_id')
    .innerJoin('library_directories as d', 'd.id', 'f.directory_id')
    .select(sql<string>`${sql.ref(column)}`.as('entry'))
    .where((eb) => eb.or([eb('f.directory_id', '=', id), eb('d.parent_id', '=', id)]))
    .where(column, 'is not', null)
    .groupBy(column)
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(column)
    .limit(1)
    .executeTakeFirst();
  return row?.entry;
}

/** getArtistInfo's `id`, from folder browsing: an artist, an album's or a song's artist, or a directory's. */
async function artistIdOf(db: Database, userId: string, id: string): Promise<string | undefined> {
  const artist = await currentId(db, 'artist', id);
  if (await db.selectFrom('artists').select('id').where('id', '=', artist).executeTakeFirst()) return artist;
  const album = await db
    .selectFrom('albums')
    .select('artist_id')
    .where('id', '=', await currentId(db, 'album', id))
    .executeTakeFirst();
  if (album) return album.artist_id ?? undefined;
  const song = await db
    .selectFrom('tracks')
    .select('artist_id')
    .where('id', '=', await currentId(db, 'song', id))
    .executeTakeFirst();
  if (song) return song.artist_id ?? undefined;
  return directoryEntry(db, userId, id, 't.artist_id');
}

/** getAlbumInfo's `id`: an album, a song's album, or a directory's. */
async function albumIdOf(db: Database, userId: string, id: string): Promise<string | undefined> {
  const album = await currentId(db, 'album', id);
  if (await db.selectFrom('albums').select('id').where('id', '=', album).executeTakeFirst()) return album;
  const song = await db
    .selectFrom('tracks')
    .select('album_id')
    .where('id', '=', await currentId(db, 'song', id))
    .executeTakeFirst();
  if (song) return song.album_id ?? undefined;
  return directoryEntry(db, userId, id, 't.album_id');
}

export const getArtistInfo2 = defineSubsonicMethod('getArtistInfo2', async ({ ctx, viewer, params }) => ({
  artistInfo2: await artistInfo(ctx.db, viewer.userId, await catalogParam(ctx.db, params, 'artist')),
}));

export const getArtistInfo = defineSubsonicMethod('getArtistInfo', async ({ ctx, viewer, params }) => {
  const id = uuidParam(params);
  const artistId = await artistIdOf(ctx.db, viewer.userId, id);
  if (!artistId) throw libraryNotFound(`no artist for ${id}`);
  return { artistInfo: await artistInfo(ctx.db, viewer.userId, artistId) };
});

export const getAlbumInfo2 = defineSubsonicMethod('getAlbumInfo2', async ({ ctx, viewer, params }) => ({
  albumInfo: await albumInfo(ctx.db, viewer.userId, await catalogParam(ctx.db, params, 'album')),
}));

export const getAlbumInfo = defineSubsonicMethod('getAlbumInfo', async ({ ctx, viewer, params }) => {
  const id = uuidParam(params);
  const albumId = await albumIdOf(ctx.db, viewer.userId, id);
  if (!albumId) throw libraryNotFound(`no album for ${id}`);
  return { albumInfo: await albumInfo(ctx.db, viewer.userId, albumId) };
});
