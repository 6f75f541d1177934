import { publicPictureEndpoint } from '../http/picture-endpoints.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { coverFor } from './covers.ts';

/**
 * `GET /library/covers/:id`: a track's cover without credentials, the URL the scanner writes
 * into `tracks.album_art` so any client (and the web) can show it. Only server-wide sources
 * answer: a user's own files stay behind their credentials. The type sent is the one the bytes
 * are (covers.ts), never the one a tag or a file name declares.
 */
export const libraryCoverEndpoint = publicPictureEndpoint({
  at: '/library/covers',
  tag: 'library',
  param: 'id',
  paramDescription: "the track's id",
  operationId: 'getLibraryCoversId',
  summary: "A track's cover from the server-wide library",
  find: (ctx, id, known) => (isUuid(id) ? coverFor(ctx.db, null, id.toLowerCase(), known) : Promise.resolve(null)),
  missing: (id) => `no cover for ${id}`,
});
