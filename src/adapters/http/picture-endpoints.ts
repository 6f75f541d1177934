import { storedAlbumCover } from '../../core/catalog/enrich/index.ts';
import { storedAvatar } from '../../core/profiles/avatars.ts';
import { notFound } from '../../toolkit/errors.ts';
import type { Endpoint } from './endpoint.ts';
import { sendPublicPicture } from './file-headers.ts';
import { PLAIN_HTTP } from './xrpc-protocol.ts';

/** The OpenAPI entry of a public picture at `/<tag>/{name}`: bytes of the type they are, or 404. */
export function pictureOpenApi(operationId: string, tag: string, name: string, description: string) {
  return {
    operationId,
    tags: [tag],
    security: [],
    parameters: [{ name, in: 'path', required: true, description, schema: { type: 'string' } }],
    responses: {
      '200': { description: 'The picture; its type is the one its bytes are', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
      '304': { description: 'Not modified (If-None-Match)' },
      '404': { description: 'NotFound', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
    },
  };
}

export const albumCoverEndpoint: Endpoint = {
  method: 'GET',
  path: '/covers/:albumId',
  host: 'api',
  protocol: PLAIN_HTTP,
  summary: "An album's cover, kept from the Cover Art Archive",
  openapi: pictureOpenApi('getCoversAlbumId', 'covers', 'albumId', "the album's id"),
  handler: async ({ request, reply, ctx }) => {
    const { albumId } = request.params as { albumId: string };
    const cover = await storedAlbumCover(ctx.db, albumId);
    if (!cover) throw notFound(`no cover for album ${albumId}`);
    return sendPublicPicture(request, reply, cover.data, cover.contentType);
  },
};

export const avatarEndpoint: Endpoint = {
  method: 'GET',
  path: '/avatars/:userId',
  host: 'api',
  protocol: PLAIN_HTTP,
  summary: "A user's avatar, as kept by this server",
  openapi: pictureOpenApi('getAvatarsUserId', 'avatars', 'userId', "the user's id"),
  handler: async ({ request, reply, ctx }) => {
    const { userId } = request.params as { userId: string };
    const avatar = await storedAvatar(ctx.db, userId);
    if (!avatar) throw notFound(`no avatar for ${userId}`);
    return sendPublicPicture(request, reply, avatar.data, avatar.contentType);
  },
};
