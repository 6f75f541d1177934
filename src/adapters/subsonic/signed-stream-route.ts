import { PLAIN_HTTP } from '../http/xrpc-protocol.ts';
import type { Endpoint } from '../http/endpoint.ts';
import { hostedBytes } from '../../core/filehost/stream.ts';
import { SIGNED_STREAM_PATH, verifyStreamUrl } from '../../core/library/signed-stream.ts';
import { servedAudioType } from '../../core/library/tags.ts';
import { playableFile } from '../../core/library/views.ts';
import { FILE_RESPONSE_HEADERS } from '../http/file-headers.ts';
import { notFound } from '../../toolkit/errors.ts';
import { fileBytes, openLocal } from './bytes.ts';

const ERROR = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };

/**
 * `GET /library/stream/:id?u=&exp=&sig=`: a song's bytes for the web player's <audio> element, with
 * no credential but the URL's own signature (core/library/signed-stream.ts), Range requests
 * answered as /rest/stream answers them. Refusals are XRPC error bodies.
 */
export const signedStreamEndpoint: Endpoint = {
  method: 'GET',
  path: `${SIGNED_STREAM_PATH}/:id`,
  host: 'api',
  protocol: PLAIN_HTTP,
  summary: "A song's file, streamed through a signed URL from app.svc.library.getStreamUrl (for players that cannot send an Authorization header)",
  openapi: {
    operationId: 'getLibraryStreamId',
    tags: ['library'],
    security: [],
    parameters: [
      { name: 'id', in: 'path', required: true, description: "the song's id", schema: { type: 'string' } },
      { name: 'u', in: 'query', required: true, description: 'the user the URL was signed for', schema: { type: 'string' } },
      { name: 'exp', in: 'query', required: true, description: 'when the URL expires, in Unix seconds', schema: { type: 'string' } },
      { name: 'sig', in: 'query', required: true, description: "the server's signature", schema: { type: 'string' } },
      { name: 'Range', in: 'header', required: false, description: 'one byte range (RFC 9110)', schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'The whole file', content: { 'audio/*': { schema: { type: 'string', format: 'binary' } } } },
      '206': { description: 'The requested range', content: { 'audio/*': { schema: { type: 'string', format: 'binary' } } } },
      '401': { description: 'InvalidToken (missing or wrong signature) or ExpiredToken', ...ERROR },
      '404': { description: 'NotFound: the user cannot play this song (any more)', ...ERROR },
      '416': { description: 'Range Not Satisfiable' },
    },
  },
  handler: async ({ request, reply, ctx }) => {
    const trackId = (request.params as { id: string }).id;
    const grant = verifyStreamUrl(ctx.keys, trackId, request.query as Record<string, unknown>);
    const file = await playableFile(ctx.db, grant.userId, trackId);
    if (!file) throw notFound(`no song ${trackId}`);
    const contentType = servedAudioType(file.content_type);
    const range = request.headers.range;
    const bytes =
      file.kind === 'local'
        ? await fileBytes(await openLocal(file), contentType, range)
        : await hostedBytes(ctx, { ...file, kind: file.kind, owner_id: file.owner_id!, content_type: contentType }, range, FILE_RESPONSE_HEADERS);
    // Private: the bytes are this user's to play, and no shared cache may keep them.
    return reply
      .status(bytes.status)
      .type(bytes.contentType)
      .headers({ ...bytes.headers, 'cache-control': 'private' })
      .send(bytes.body);
  },
};
