/** The `app.svc.album` group: an album's page, and the admin's merges and fixes of albums. */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';
import { albumPage } from '../../core/catalog/artist-album-pages.ts';
import { resolvedId, referenceSchema } from '../../core/catalog/references.ts';
import { AlbumView, Song } from '../../core/catalog/schemas.ts';
import { mergeOperation, updateOperation } from './shared/catalog-edits.ts';

const getAlbum = defineQuery({
  nsid: 'app.svc.album.getAlbum',
  summary: 'An album with play statistics and its tracks in disc and track order',
  auth: 'optional',
  params: referenceSchema('album'),
  output: Type.Object({ album: AlbumView, tracks: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return albumPage(ctx.db, await resolvedId(ctx.db, 'album', params), viewer?.userId ?? null);
  },
});

export const albumOperations = [getAlbum, mergeOperation('app.svc.album.mergeAlbums', 'album'), updateOperation('app.svc.album.updateAlbum', 'album')];
