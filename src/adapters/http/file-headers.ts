/**
 * Headers for every response whose bytes a user or a file's author chose (covers, streamed and
 * downloaded files): the browser must take the declared type as final (no sniffing a "picture"
 * into HTML), and a response opened as a page of its own runs no script and loads nothing, in an
 * origin of its own. Set at the routes themselves, whatever headers the server adds globally.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FILE_CSP } from './security-headers.ts';

export const FILE_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': FILE_CSP,
};

/** A validator for caches: the picture's own digest, so it changes exactly when the bytes do. */
export function pictureEtag(data: Uint8Array): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;
}

/** A picture to send: its bytes, the type they were found to be (image-type.ts), and the validator stored with them. */
export interface SentPicture {
  data: Buffer;
  contentType: string;
  etag: string;
}

/**
 * What a picture lookup answers given the client's If-None-Match: the picture, 'unchanged' when
 * the client already holds it (nothing was read), or null when there is none.
 */
export type PictureLookup = SentPicture | 'unchanged' | null;

/** The client's validator from If-None-Match (a single one, as browsers and Subsonic clients send). */
export const ifNoneMatch = (header: string | string[] | undefined): string | undefined => (typeof header === 'string' ? header : undefined);

/**
 * Answers a picture anyone may see (a cover, an avatar) with the file headers, a day of public
 * caching and its ETag: 304 when the client already holds these bytes. `type` is the one the
 * bytes were found to be (image-type.ts), never a declared one.
 */
export function sendPublicPicture(request: FastifyRequest, reply: FastifyReply, found: SentPicture | 'unchanged'): FastifyReply {
  const etag = found === 'unchanged' ? request.headers['if-none-match']! : found.etag;
  reply.headers(FILE_RESPONSE_HEADERS).header('etag', etag).header('cache-control', 'public, max-age=86400');
  if (found === 'unchanged' || request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type(found.contentType).send(found.data);
}
