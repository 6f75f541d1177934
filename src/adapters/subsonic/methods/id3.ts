import type { Database } from '../../../toolkit/db/index.ts';
import { libraryNotFound } from '../../../core/library/errors.ts';
import { currentIdSql } from '../../../core/catalog/aliases.ts';
import { albumViews, albumWithSongs, artistViews, songViews } from '../../../core/library/views.ts';
import { catalogParam, folderParam, uuidParam } from '../args.ts';
import { artistAlbumIds, artistIsPlayable, isPlayable, playableArtistIds } from '../../../core/library/playable.ts';
import { groupByIndex, IGNORED_ARTICLES } from '../folders.ts';
import { defineSubsonicMethod } from '../method.ts';

export const getArtists = defineSubsonicMethod('getArtists', async ({ ctx, viewer, params }) => {
  const ids = await playableArtistIds(ctx.db, viewer.userId, folderParam(params));
  const artists = await artistViews(ctx.db, viewer.userId, ids);
  return {
    artists: {
      ignoredArticles: IGNORED_ARTICLES.join(' '),
      index: groupByIndex(artists).map((group) => ({ name: group.name, artist: group.items })),
    },
  };
});

export async function artistOrNotFound(db: Database, userId: string, id: string) {
  const [artist] = await artistViews(db, userId, [id]);
  if (!artist || !(await artistIsPlayable(db, userId, id))) throw libraryNotFound(`no artist ${id}`);
  return artist;
}

export const getArtist = defineSubsonicMethod('getArtist', async ({ ctx, viewer, params }) => {
  const id = await catalogParam(ctx.db, params, 'artist');
  const artist = await artistOrNotFound(ctx.db, viewer.userId, id);
  const albums = await albumViews(ctx.db, viewer.userId, await artistAlbumIds(ctx.db, viewer.userId, id));
  return { artist: { ...artist, album: albums } };
});

export async function albumOrNotFound(db: Database, userId: string, id: string) {
  const [album] = await albumViews(db, userId, [id]);
  if (!album || album.songCount === 0) throw libraryNotFound(`no album ${id}`);
  return album;
}

export const getAlbum = defineSubsonicMethod('getAlbum', async ({ ctx, viewer, params }) => {
  const id = uuidParam(params);
  const found = await albumWithSongs(ctx.db, viewer.userId, currentIdSql('album', id));
  if (!found) throw libraryNotFound(`no album ${id}`);
  return { album: { ...found.album, song: found.songs } };
});

export const getSong = defineSubsonicMethod('getSong', async ({ ctx, viewer, params }) => {
  const id = await catalogParam(ctx.db, params, 'song');
  if (!(await isPlayable(ctx.db, viewer.userId, id))) throw libraryNotFound(`no song ${id}`);
  const [song] = await songViews(ctx.db, viewer.userId, [id]);
  return { song };
});
