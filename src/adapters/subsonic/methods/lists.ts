import { sql } from 'kysely';
import { albumViews, hasPlayableFile, songViews } from '../../../core/library/views.ts';
import { albumListIds } from '../album-list.ts';
import { folderParam, offsetParam, sizeParam } from '../args.ts';
import { defineSubsonicMethod } from '../method.ts';
import { albumChild } from '../shapes.ts';

export const getAlbumList2 = defineSubsonicMethod('getAlbumList2', async ({ ctx, viewer, params }) => {
  const albums = await albumViews(ctx.db, viewer.userId, await albumListIds(ctx.db, viewer.userId, params));
  return { albumList2: { album: albums } };
});

export const getAlbumList = defineSubsonicMethod('getAlbumList', async ({ ctx, viewer, params }) => {
  const albums = await albumViews(ctx.db, viewer.userId, await albumListIds(ctx.db, viewer.userId, params));
  return { albumList: { album: albums.map(albumChild) } };
});

export const getRandomSongs = defineSubsonicMethod('getRandomSongs', async ({ ctx, viewer, params }) => {
  const genre = params.get('genre');
  const fromYear = params.integer('fromYear');
  const toYear = params.integer('toYear');
  let query = ctx.db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select('t.id')
    .where(hasPlayableFile(sql.ref('t.id'), viewer.userId, folderParam(params)));
  if (genre) query = query.where(sql<boolean>`lower(t.genre) = ${genre.toLowerCase()}`);
  if (fromYear !== undefined) query = query.where('al.year', '>=', fromYear);
  if (toYear !== undefined) query = query.where('al.year', '<=', toYear);
  const rows = await query
    .orderBy(sql`random()`)
    .limit(sizeParam(params, 'size', 10))
    .execute();
  return {
    randomSongs: {
      song: await songViews(
        ctx.db,
        viewer.userId,
        rows.map((row) => row.id),
      ),
    },
  };
});

/** Genres of the songs the user can play; the name is the element's text in XML. */
export const getGenres = defineSubsonicMethod('getGenres', async ({ ctx, viewer }) => {
  const rows = await ctx.db
    .selectFrom('tracks as t')
    .select(['t.genre', sql<number>`count(*)::int`.as('song_count'), sql<number>`count(distinct t.album_id)::int`.as('album_count')])
    .where('t.genre', 'is not', null)
    .where(hasPlayableFile(sql.ref('t.id'), viewer.userId))
    .groupBy('t.genre')
    .orderBy('t.genre')
    .execute();
  return { genres: { genre: rows.map((row) => ({ value: row.genre!, songCount: row.song_count, albumCount: row.album_count })) } };
});

export const getSongsByGenre = defineSubsonicMethod('getSongsByGenre', async ({ ctx, viewer, params }) => {
  const genre = params.required('genre');
  const rows = await ctx.db
    .selectFrom('tracks as t')
    .select('t.id')
    .where(sql<boolean>`lower(t.genre) = ${genre.toLowerCase()}`)
    .where(hasPlayableFile(sql.ref('t.id'), viewer.userId, folderParam(params)))
    .orderBy('t.artist')
    .orderBy('t.album')
    .orderBy(sql`t.disc_number nulls first`)
    .orderBy(sql`t.track_number nulls last`)
    .orderBy('t.id')
    .limit(sizeParam(params, 'count', 10))
    .offset(offsetParam(params))
    .execute();
  return {
    songsByGenre: {
      song: await songViews(
        ctx.db,
        viewer.userId,
        rows.map((row) => row.id),
      ),
    },
  };
});
