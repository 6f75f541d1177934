import { star, starred, unstar, type Starred } from '../../../../core/library/stars.ts';
import { defineSubsonicMethod, type SubsonicParams } from '../../method.ts';

/** Subsonic's star, unstar, getStarred and getStarred2 over the stars the catalog calls likes. */

/**
 * getStarred is the folder-based variant, whose albums are directory entries (a `Child` with
 * isDir and a title); Earshot's albums are tag-based, so they keep their ID3 fields beside those.
 */
const asFolders = (stars: Starred) => ({ ...stars, album: stars.album.map((album) => ({ ...album, isDir: true, title: album.name })) });

const targets = (params: SubsonicParams) => ({ id: params.all('id'), album: params.all('albumId'), artist: params.all('artistId') });

export const starMethods = [
  defineSubsonicMethod('star', async ({ ctx, viewer, params }) => {
    await star(ctx, viewer.userId, targets(params));
    return {};
  }),
  defineSubsonicMethod('unstar', async ({ ctx, viewer, params }) => {
    await unstar(ctx, viewer.userId, targets(params));
    return {};
  }),
  defineSubsonicMethod('getStarred', async ({ ctx, viewer }) => ({ starred: asFolders(await starred(ctx.db, viewer.userId)) })),
  defineSubsonicMethod('getStarred2', async ({ ctx, viewer }) => ({ starred2: await starred(ctx.db, viewer.userId) })),
];
