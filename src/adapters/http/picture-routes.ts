/**
 * The public pictures Earshot keeps in its database, on the API host without credentials (album art
 * and profiles are public): `GET /covers/:albumId` (covers fetched by enrichment, core/catalog/enrich/covers.ts)
 * and `GET /avatars/:userId` (avatars kept from a user's URL, core/profiles/avatars.ts). 404 for an
 * id that is no UUID, a missing picture, or stored bytes that are no allowed image.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { storedAlbumCover } from '../../core/catalog/enrich/index.ts';
import { isUuid } from '../../core/library/known-ids.ts';
import { storedAvatar } from '../../core/profiles/avatars.ts';
import { imageType } from '../../toolkit/image-type.ts';
import { sendPublicPicture } from './file-headers.ts';

export function registerPictureRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { albumId: string } }>('/covers/:albumId', async (request, reply) => {
    const { albumId } = request.params;
    const data = isUuid(albumId) ? await storedAlbumCover(ctx.db, albumId) : undefined;
    const contentType = data ? imageType(data) : null;
    if (!data || !contentType) return reply.status(404).send({ error: 'NotFound', message: `no cover for album ${albumId}` });
    return sendPublicPicture(request, reply, data, contentType);
  });
  app.get<{ Params: { userId: string } }>('/avatars/:userId', async (request, reply) => {
    const { userId } = request.params;
    const data = isUuid(userId) ? await storedAvatar(ctx.db, userId) : undefined;
    const type = data && imageType(data);
    if (!data || !type) return reply.status(404).send({ error: 'NotFound', message: `no avatar for ${userId}` });
    return sendPublicPicture(request, reply, data, type);
  });
}
