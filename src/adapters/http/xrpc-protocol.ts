import { errorNameForStatus, XrpcError } from '../../toolkit/errors.ts';
import type { Protocol } from './endpoint.ts';
import type { ErrorRenderer } from './error-path.ts';

/** The spec's error body `{ error, message? }` with the status; Retry-After when the refusal gives one. */
export const renderXrpcError: ErrorRenderer = (error, _request, reply) => {
  if (error.internal) return reply.status(500).send({ error: 'InternalServerError', message: 'Internal server error' });
  if (error.cause instanceof XrpcError) {
    if (error.cause.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.cause.retryAfterSeconds));
    return reply.status(error.status).send(error.cause.body());
  }
  return reply.status(error.status).send({ error: errorNameForStatus(error.status), message: error.message });
};

/** XRPC at /xrpc/<nsid>: an nsid called with the other method is 405, naming the one to use. */
export const XRPC: Protocol = {
  name: 'xrpc',
  renderError: renderXrpcError,
  methodNotAllowed: {
    methods: ['GET', 'POST'],
    message: (path, [allowed]) => `${path.slice('/xrpc/'.length)} is a ${allowed === 'GET' ? 'query' : 'procedure'}; use ${allowed}`,
  },
};

/** The API host's plain routes (sign-in, access tokens, pictures, operations): XRPC's error shape, Fastify's 404 for other methods. */
export const PLAIN_HTTP: Protocol = { name: 'http', renderError: renderXrpcError };
