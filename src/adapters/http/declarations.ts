/**
 * The declaration-driven part of the API host: every XRPC operation (operation.ts) and plain route
 * (route.ts) becomes a Fastify route with its credentials checked before the body is read, its
 * parameters and body validated against the declared schemas, and heavy operations admitted by the
 * HeavyReadLimiter. The composition root (src/app/api-host.ts) hands over the declarations.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { authorize } from '../../core/auth/authenticate.ts';
import type { AuthMode } from '../../core/auth/auth-mode.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import { XrpcError } from '../../toolkit/errors.ts';
import { HEAVY_RETRY_AFTER_SECONDS, HeavyReadLimiter } from './heavy-limit.ts';
import type { AnyOperation } from './operation.ts';
import { redirects, type AnyRoute, type Download } from './route.ts';
import { XRPC_BODY_LIMIT } from './server.ts';

export interface Declarations {
  operations: readonly AnyOperation[];
  routes: readonly AnyRoute[];
}

/**
 * Checks a declaration's credentials in `onRequest`, before the body is read, parsed or
 * validated: an unauthenticated caller learns nothing about the body's shape, and a large body
 * from one is never buffered. The handler then finds the caller with `viewerOf`.
 */
function credentialsCheck(ctx: AppContext, auth: AuthMode) {
  const viewers = new WeakMap<FastifyRequest, Viewer | null>();
  return {
    onRequest: async (request: FastifyRequest) => {
      viewers.set(request, await authorize(ctx, auth, request.headers.authorization));
    },
    viewerOf: (request: FastifyRequest) => viewers.get(request) ?? null,
  };
}

/** Admits a heavy operation's request for its client, asking a refused one to come back later. */
function admitHeavy(limiter: HeavyReadLimiter, request: FastifyRequest, reply: FastifyReply): () => void {
  try {
    return limiter.enter(request.ip);
  } catch (error) {
    reply.header('retry-after', String(HEAVY_RETRY_AFTER_SECONDS));
    throw error;
  }
}

function registerOperation(app: FastifyInstance, ctx: AppContext, operation: AnyOperation, limiter: HeavyReadLimiter): void {
  const url = `/xrpc/${operation.nsid}`;
  const method = operation.kind === 'query' ? 'GET' : 'POST';
  const credentials = credentialsCheck(ctx, operation.auth);
  app.route({
    method,
    url,
    onRequest: credentials.onRequest,
    // A procedure called with no body at all (only query parameters, as the spec declares
    // addDirectoryToQueue's) is validated as an empty one, so it fails only for a missing field.
    ...(operation.input ? { preValidation: async (request: FastifyRequest) => void (request.body ??= {}) } : {}),
    bodyLimit: operation.bodyLimit ?? XRPC_BODY_LIMIT,
    schema: {
      querystring: operation.params,
      ...(operation.input ? { body: operation.input } : {}),
      response: { 200: operation.output },
    },
    handler: async (request, reply) => {
      const done = operation.heavy ? admitHeavy(limiter, request, reply) : () => {};
      try {
        const viewer = credentials.viewerOf(request);
        return await operation.handler({ params: request.query as never, input: request.body as never, viewer: viewer as never, ctx });
      } finally {
        done();
      }
    },
  });
  refuseOtherMethod(app, url, method);
}

/** XRPC's rule for an nsid called with the other method: 405, naming the one to use. */
function refuseOtherMethod(app: FastifyInstance, url: string, method: 'GET' | 'POST'): void {
  const nsid = url.slice('/xrpc/'.length);
  app.route({
    method: method === 'GET' ? 'POST' : 'GET',
    url,
    handler: async () => {
      throw new XrpcError(405, 'MethodNotAllowed', `${nsid} is a ${method === 'GET' ? 'query' : 'procedure'}; use ${method}`);
    },
  });
}

/** The Cookie header's pairs (RFC 6265 §5.4); a malformed pair is skipped, a value is URI-decoded when it can be. */
function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const value = pair.slice(at + 1).trim();
    try {
      cookies[pair.slice(0, at).trim()] = decodeURIComponent(value);
    } catch {
      cookies[pair.slice(0, at).trim()] = value;
    }
  }
  return cookies;
}

function registerRoute(app: FastifyInstance, ctx: AppContext, route: AnyRoute): void {
  const credentials = credentialsCheck(ctx, route.auth);
  app.route({
    method: route.method,
    url: route.path,
    onRequest: credentials.onRequest,
    bodyLimit: XRPC_BODY_LIMIT,
    schema: {
      params: route.pathParams,
      querystring: route.query,
      ...(route.body ? { body: route.body } : {}),
      ...(route.success.schema ? { response: { [route.success.status]: route.success.schema } } : {}),
    },
    handler: async (request, reply) => {
      const viewer = credentials.viewerOf(request);
      const setCookie = (cookie: string) => void reply.header('set-cookie', [...[reply.getHeader('set-cookie') ?? []].flat().map(String), cookie]);
      const call = { pathParams: request.params as never, query: request.query as never, body: request.body as never, viewer: viewer as never, ctx };
      const body = await route.handler({ ...call, userAgent: request.headers['user-agent'], cookies: parseCookies(request.headers.cookie), setCookie });
      if (redirects(route)) return reply.redirect(body as string, route.success.status);
      if (route.success.download) {
        const { filename, body: bytes } = body as Download;
        reply.header('content-type', route.success.download).header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`);
        return reply.status(route.success.status).send(bytes);
      }
      reply.status(route.success.status);
      return route.success.schema ? body : reply.send();
    },
  });
  // A route at an XRPC address (a download such as app.svc.actor.exportData) keeps XRPC's method rule.
  if (route.path.startsWith('/xrpc/') && (route.method === 'GET' || route.method === 'POST')) refuseOtherMethod(app, route.path, route.method);
}

/** Registers every operation and route (operations share one heavy-read limiter). */
export function registerDeclarations(app: FastifyInstance, ctx: AppContext, declarations: Declarations): void {
  const limiter = new HeavyReadLimiter();
  for (const operation of declarations.operations) registerOperation(app, ctx, operation, limiter);
  for (const route of declarations.routes) registerRoute(app, ctx, route);
}
