import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerCredentials } from './bearer.ts';
import { cookieSetter } from './cookies.ts';
import type { Endpoint } from './endpoint.ts';
import { HEAVY_RETRY_AFTER_SECONDS, type HeavyReadLimiter } from './heavy-limit.ts';
import { operationEntry } from './openapi.ts';
import type { AnyOperation } from './operation.ts';
import { answerFromCache, type ResponseCache } from './response-cache.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import { XRPC } from './xrpc-protocol.ts';

/** XRPC bodies are small JSON records; operations that take more (import batches) raise their own limit. */
export const XRPC_BODY_LIMIT = 64 * 1024;

/** Admits a heavy operation's request for its client, asking a refused one to come back later. */
function admitHeavy(limiter: HeavyReadLimiter, request: FastifyRequest, reply: FastifyReply): () => void {
  try {
    return limiter.enter(request.ip);
  } catch (error) {
    reply.header('retry-after', String(HEAVY_RETRY_AFTER_SECONDS));
    throw error;
  }
}

/** What the operations of one host share: the heavy reads' limiter and the kept answers. */
export interface OperationShared {
  limiter: HeavyReadLimiter;
  cache: ResponseCache;
}

/**
 * Where a cacheable answer is kept: the operation, the caller's account (answers such as `liked`
 * are the caller's) and the validated parameters, defaults filled in, in a fixed order.
 */
function cacheKey(nsid: string, viewer: Viewer | null, params: Record<string, unknown>): string {
  const ordered = Object.keys(params)
    .sort()
    .map((name) => [name, params[name]]);
  return JSON.stringify([nsid, viewer?.userId ?? null, ordered]);
}

/** An XRPC operation as an endpoint: a query is GET with query parameters, a procedure POST with a JSON body. */
export function operationEndpoint(operation: AnyOperation, { limiter, cache }: OperationShared): Endpoint<Viewer | null> {
  const cached = operation.cache === 'snapshot' && cache.maxBytes > 0;
  return {
    method: operation.kind === 'query' ? 'GET' : 'POST',
    path: `/xrpc/${operation.nsid}`,
    host: 'api',
    protocol: XRPC,
    summary: operation.summary,
    credentials: bearerCredentials(operation.auth),
    openapi: operationEntry(operation),
    openapiPath: `/${operation.nsid}`,
    route: {
      // A procedure called with no body at all (only query parameters, as the spec declares
      // addDirectoryToQueue's) is validated as an empty one, so it fails only for a missing field.
      ...(operation.input
        ? {
            preValidation: async (request: FastifyRequest) => {
              request.body ??= {};
            },
          }
        : {}),
      bodyLimit: operation.bodyLimit ?? XRPC_BODY_LIMIT,
      schema: {
        querystring: operation.params,
        ...(operation.input ? { body: operation.input } : {}),
        response: { 200: operation.output },
      },
    },
    handler: async ({ request, reply, ctx, credentials }) => {
      const done = operation.heavy ? admitHeavy(limiter, request, reply) : () => {};
      const call = () =>
        operation.handler({
          params: request.query as never,
          input: request.body as never,
          viewer: credentials as never,
          ctx,
          setCookie: cookieSetter(reply),
        });
      try {
        if (!cached) return await call();
        const key = cacheKey(operation.nsid, credentials, request.query as Record<string, unknown>);
        return await answerFromCache(cache, key, ctx, operation.nsid, reply, call);
      } finally {
        done();
      }
    },
  };
}
