import { missingParameter } from '../../../../core/library/errors.ts';
import { createPlaylist, deletePlaylist, getPlaylist, listPlaylists, updatePlaylist } from '../../../../core/library/playlists.ts';
import { defineSubsonicMethod } from '../../method.ts';
import { integers } from './integers.ts';

/** Subsonic's playlist methods. Another user's playlist is never changed: error 50 when it is public, 70 when not. */
export const playlistMethods = [
  // Subsonic lists the caller's playlists and everyone's public ones; `username` lists that user's instead.
  defineSubsonicMethod('getPlaylists', async ({ ctx, viewer, params }) => ({
    playlists: { playlist: await listPlaylists(ctx.db, viewer.userId, { includePublic: true, owner: params.get('username') }) },
  })),
  defineSubsonicMethod('getPlaylist', async ({ ctx, viewer, params }) => ({ playlist: await getPlaylist(ctx.db, viewer.userId, params.required('id')) })),
  // With playlistId it replaces that playlist's songs (and renames it when name is given); without, name makes a new one.
  defineSubsonicMethod('createPlaylist', async ({ ctx, viewer, params }) => {
    const playlistId = params.get('playlistId');
    const name = params.get('name');
    const songs = params.all('songId');
    let id: string;
    if (playlistId !== undefined) {
      await updatePlaylist(ctx.db, viewer.userId, playlistId, { name, songs });
      id = playlistId;
    } else if (name !== undefined) {
      id = await createPlaylist(ctx.db, viewer.userId, name, songs);
    } else {
      throw missingParameter('name or playlistId');
    }
    return { playlist: await getPlaylist(ctx.db, viewer.userId, id) };
  }),
  defineSubsonicMethod('updatePlaylist', async ({ ctx, viewer, params }) => {
    await updatePlaylist(ctx.db, viewer.userId, params.required('playlistId'), {
      name: params.get('name'),
      comment: params.text('comment'),
      public: params.boolean('public'),
      add: params.all('songIdToAdd'),
      remove: integers(params, 'songIndexToRemove').filter((index) => index !== undefined),
    });
    return {};
  }),
  defineSubsonicMethod('deletePlaylist', async ({ ctx, viewer, params }) => {
    await deletePlaylist(ctx.db, viewer.userId, params.required('id'));
    return {};
  }),
];
