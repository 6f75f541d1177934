import type { FastifyInstance } from 'fastify';
import { sendPublicPicture } from '../http/file-headers.ts';
import type { AppContext } from '../../core/context.ts';
import { isUuid } from '../../core/library/known-ids.ts';
import { coverFor } from './covers.ts';

/**
 * `GET /library/covers/:id`: a track's cover without credentials, the URL the scanner writes
 * into `tracks.album_art` so any client (and the web) can show it. Only server-wide sources
 * answer: a user's own files stay behind their credentials. The type sent is the one the bytes
 * are (covers.ts), never the one a tag or a file name declares.
 */
export function registerCoverRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string } }>('/library/covers/:id', async (request, reply) => {
    const { id } = request.params;
    const picture = isUuid(id) ? await coverFor(ctx.db, null, id.toLowerCase()) : null;
    if (!picture) return reply.status(404).send({ error: 'NotFound', message: `no cover for ${id}` });
    return sendPublicPicture(request, reply, picture.data, picture.contentType);
  });
}
