import type { FastifyReply } from 'fastify';
import type { CredentialCheck, Endpoint, Protocol } from '../http/endpoint.ts';
import type { ApiKeyOwner } from '../../core/auth/api-keys.ts';
import { payloadTooLarge } from './submission.ts';
import { requireTokenOwner } from './token.ts';

/** ListenBrainz's error body: `{ code, error }` with the HTTP status as the code. */
export function sendListenBrainzError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).send({ code: status, error: message });
}

/** ListenBrainz API v1: its error body everywhere, 405 with Allow for the other methods of a known path. */
export const LISTENBRAINZ: Protocol = {
  name: 'listenbrainz',
  renderError: (error, _request, reply) => {
    if (error.internal) return sendListenBrainzError(reply, 500, 'Something went wrong. Please try again.');
    if ((error.cause as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendListenBrainzError(reply, 400, payloadTooLarge().message);
    return sendListenBrainzError(reply, error.status, error.message);
  },
  methodNotAllowed: { methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], message: () => 'The method is not allowed for the requested URL.' },
};

/**
 * The user token of the routes that write: an Earshot API key as `Authorization: Token <key>`,
 * checked on the headers alone, so a request without a valid one is refused before its body
 * (up to 10 MB) is read.
 */
export const USER_TOKEN: CredentialCheck<ApiKeyOwner> = {
  stage: 'headers',
  description: 'Authorization: Token <an Earshot API key>',
  check: (request, ctx) => requireTokenOwner(ctx.db, request.headers.authorization),
};

type Declaration<C> = Omit<Endpoint<C>, 'host' | 'protocol' | 'openapi'> & {
  /** noUser: the route reads no user (sitewide statistics), so an unknown one is no answer of it. */
  openapi: { operationId: string; parameters?: unknown[]; body?: string; answer: string; noContent?: boolean; noUser?: boolean };
};

const JSON_ANSWER = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const ERROR_ANSWER = (description: string) => ({
  description,
  content: {
    'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' }, error: { type: 'string' } }, required: ['code', 'error'] } },
  },
});

/** A ListenBrainz endpoint on the scrobbler host, documented with ListenBrainz's answers and error body. */
export function listenBrainzEndpoint<C = undefined>({ openapi, ...declaration }: Declaration<C>): Endpoint<C> {
  const { operationId, parameters = [], body, answer, noContent, noUser } = openapi;
  return {
    ...declaration,
    host: 'scrobbler',
    protocol: LISTENBRAINZ,
    openapi: {
      operationId,
      tags: ['listenbrainz'],
      ...(declaration.credentials ? { description: `Credentials: ${declaration.credentials.description}.` } : { security: [] }),
      parameters,
      ...(body ? { requestBody: { required: true, description: body, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
      responses: {
        '200': JSON_ANSWER(answer),
        ...(noContent ? { '204': { description: 'No plays in the range, so no statistics' } } : {}),
        '400': ERROR_ANSWER('A malformed request'),
        ...(declaration.credentials ? { '401': ERROR_ANSWER('A missing or invalid token') } : {}),
        ...(declaration.credentials || noUser ? {} : { '404': ERROR_ANSWER('No such user') }),
        '405': ERROR_ANSWER('Another method than the path takes'),
        '500': ERROR_ANSWER('Something went wrong'),
      },
    },
  };
}

/** OpenAPI parameters ListenBrainz reads. */
export const userNameParameter = { name: 'user_name', in: 'path', required: true, description: "the user's handle", schema: { type: 'string' } };
export const queryParameter = (name: string, description: string, type = 'integer') => ({ name, in: 'query', required: false, description, schema: { type } });
