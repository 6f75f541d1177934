import { notFound } from '../../toolkit/errors.ts';
import type { Endpoint } from '../http/endpoint.ts';
import { sendPublicPicture } from '../http/file-headers.ts';
import { pictureOpenApi } from '../http/picture-endpoints.ts';
import { PLAIN_HTTP } from '../http/xrpc-protocol.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { coverFor } from './covers.ts';

/**
 * `GET /library/covers/:id`: a track's cover without credentials, the URL the scanner writes
 * into `tracks.album_art` so any client (and the web) can show it. Only server-wide sources
 * answer: a user's own files stay behind their credentials. The type sent is the one the bytes
 * are (covers.ts), never the one a tag or a file name declares.
 */
export const libraryCoverEndpoint: Endpoint = {
  method: 'GET',
  path: '/library/covers/:id',
  host: 'api',
  protocol: PLAIN_HTTP,
  summary: "A track's cover from the server-wide library",
  openapi: pictureOpenApi('getLibraryCoversId', 'library', 'id', "the track's id"),
  handler: async ({ request, reply, ctx }) => {
    const { id } = request.params as { id: string };
    const picture = isUuid(id) ? await coverFor(ctx.db, null, id.toLowerCase()) : null;
    if (!picture) throw notFound(`no cover for ${id}`);
    return sendPublicPicture(request, reply, picture.data, picture.contentType);
  },
};
