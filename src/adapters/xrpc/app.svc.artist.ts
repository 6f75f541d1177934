/** The `app.svc.artist` group: an artist's page, and the admin's merges and fixes of artists. */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';
import { artistPage } from '../../core/catalog/artist-album-pages.ts';
import { resolvedId, referenceSchema } from '../../core/catalog/references.ts';
import { AlbumView, ArtistView, Song } from '../../core/catalog/schemas.ts';
import { mergeOperation, updateOperation } from './shared/catalog-edits.ts';

const getArtist = defineQuery({
  nsid: 'app.svc.artist.getArtist',
  summary: 'An artist with play statistics, their most played songs and albums',
  auth: 'optional',
  params: referenceSchema('artist'),
  output: Type.Object({ artist: ArtistView, topSongs: Type.Array(Song), topAlbums: Type.Array(AlbumView) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return artistPage(ctx.db, await resolvedId(ctx.db, 'artist', params), viewer?.userId ?? null);
  },
});

export const artistOperations = [getArtist, mergeOperation('app.svc.artist.mergeArtists', 'artist'), updateOperation('app.svc.artist.updateArtist', 'artist')];
