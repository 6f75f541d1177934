/**
 * The pictures the API host keeps and serves itself, without credentials: album covers
 * (`/covers/<album id>`, album art is public) and avatars (`/avatars/<user id>`, profiles are
 * public). Either is 404 when nothing (or no allowed image) is kept.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { storedAlbumCover } from '../../core/catalog/enrich/index.ts';
import { isUuid } from '../../core/library/known-ids.ts';
import { storedAvatar } from '../../core/profiles/avatars.ts';
import { sendPublicPicture } from './file-headers.ts';

export function registerAlbumCoverRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { albumId: string } }>('/covers/:albumId', async (request, reply) => {
    const { albumId } = request.params;
    const cover = isUuid(albumId) ? await storedAlbumCover(ctx.db, albumId) : null;
    if (!cover) return reply.status(404).send({ error: 'NotFound', message: `no cover for album ${albumId}` });
    return sendPublicPicture(request, reply, cover.data, cover.type);
  });
}

export function registerAvatarRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { userId: string } }>('/avatars/:userId', async (request, reply) => {
    const { userId } = request.params;
    const avatar = isUuid(userId) ? await storedAvatar(ctx.db, userId) : null;
    if (!avatar) return reply.status(404).send({ error: 'NotFound', message: `no avatar for ${userId}` });
    return sendPublicPicture(request, reply, avatar.data, avatar.type);
  });
}
