import type { AppContext } from '../../core/context.ts';
import { storedAlbumCover, storedArtistImage } from '../../core/catalog/enrich/index.ts';
import { storedAvatar } from '../../core/profiles/avatars.ts';
import { notFound } from '../../toolkit/errors.ts';
import type { Endpoint } from './endpoint.ts';
import { ifNoneMatch, sendPublicPicture, type PictureLookup } from './file-headers.ts';
import { PLAIN_HTTP } from './xrpc-protocol.ts';

/**
 * What a public picture endpoint finds for the id in its path: bytes, the type they are and their
 * stored ETag; 'unchanged' when the client's validator (If-None-Match) is still the picture's; null for 404.
 */
type FindPicture = (ctx: AppContext, id: string, ifNoneMatch: string | undefined) => Promise<PictureLookup>;

interface PublicPicture {
  /** The path up to the id: `/covers`, served at `/covers/:<param>`. */
  at: string;
  /** The OpenAPI tag. */
  tag: string;
  param: string;
  paramDescription: string;
  operationId: string;
  summary: string;
  find: FindPicture;
  missing(id: string): string;
}

/**
 * A picture served on the API host without credentials (album art, artist pictures and profiles are public), with the
 * file routes' headers, an ETag and a day's caching (file-headers.ts); 404 when `find` has none.
 */
export function publicPictureEndpoint(picture: PublicPicture): Endpoint {
  return {
    method: 'GET',
    path: `${picture.at}/:${picture.param}`,
    host: 'api',
    protocol: PLAIN_HTTP,
    summary: picture.summary,
    openapi: {
      operationId: picture.operationId,
      tags: [picture.tag],
      security: [],
      parameters: [{ name: picture.param, in: 'path', required: true, description: picture.paramDescription, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The picture; its type is the one its bytes are', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
        '304': { description: 'Not modified (If-None-Match)' },
        '404': { description: 'NotFound', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
      },
    },
    handler: async ({ request, reply, ctx }) => {
      const id = (request.params as Record<string, string>)[picture.param]!;
      const found = await picture.find(ctx, id, ifNoneMatch(request.headers['if-none-match']));
      if (!found) throw notFound(picture.missing(id));
      return sendPublicPicture(request, reply, found);
    },
  };
}

export const albumCoverEndpoint = publicPictureEndpoint({
  at: '/covers',
  tag: 'covers',
  param: 'albumId',
  paramDescription: "the album's id",
  operationId: 'getCoversAlbumId',
  summary: "An album's cover, kept from the Cover Art Archive",
  find: (ctx, albumId) => storedAlbumCover(ctx.db, albumId),
  missing: (albumId) => `no cover for album ${albumId}`,
});

export const artistImageEndpoint = publicPictureEndpoint({
  at: '/artist-images',
  tag: 'artist-images',
  param: 'artistId',
  paramDescription: "the artist's id",
  operationId: 'getArtistImagesArtistId',
  summary: "An artist's picture, kept from Deezer",
  find: (ctx, artistId) => storedArtistImage(ctx.db, artistId),
  missing: (artistId) => `no picture for artist ${artistId}`,
});

export const avatarEndpoint = publicPictureEndpoint({
  at: '/avatars',
  tag: 'avatars',
  param: 'userId',
  paramDescription: "the user's id",
  operationId: 'getAvatarsUserId',
  summary: "A user's avatar, as kept by this server",
  find: (ctx, userId) => storedAvatar(ctx.db, userId),
  missing: (userId) => `no avatar for ${userId}`,
});
