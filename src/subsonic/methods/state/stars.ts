import { star, starred, unstar } from '../../../library/stars.ts';
import { defineSubsonicMethod, type SubsonicParams } from '../../method.ts';

/** Subsonic's star, unstar, getStarred and getStarred2 over the stars the catalog calls likes. */

const targets = (params: SubsonicParams) => ({ song: params.all('id'), album: params.all('albumId'), artist: params.all('artistId') });

export const starMethods = [
  defineSubsonicMethod('star', async ({ ctx, viewer, params }) => {
    await star(ctx.db, viewer.userId, targets(params));
    return {};
  }),
  defineSubsonicMethod('unstar', async ({ ctx, viewer, params }) => {
    await unstar(ctx.db, viewer.userId, targets(params));
    return {};
  }),
  // Both answer ID3-shaped artists and albums: Earshot's library is organized by tags, not folders.
  defineSubsonicMethod('getStarred', async ({ ctx, viewer }) => ({ starred: await starred(ctx.db, viewer.userId) })),
  defineSubsonicMethod('getStarred2', async ({ ctx, viewer }) => ({ starred2: await starred(ctx.db, viewer.userId) })),
];
