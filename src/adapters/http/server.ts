import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, type LogLevel, type TrustProxy } from '../../toolkit/config.ts';
import type { AppContext } from '../../core/context.ts';
import { authorize } from '../../core/auth/authenticate.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import { clientDataProblem } from '../../toolkit/db/index.ts';
import { errorNameForStatus, XrpcError, type XrpcErrorName } from '../../toolkit/errors.ts';
import { HEAVY_RETRY_AFTER_SECONDS, HeavyReadLimiter } from './heavy-limit.ts';
import { findInJson } from '../../toolkit/json-walk.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { AuthMode } from '../../core/auth/auth-mode.ts';
import type { AnyOperation } from './operation.ts';
import { redirects, type AnyRoute, type Download } from './route.ts';
import { registerSecurityHeaders, securityHeaders } from './security-headers.ts';
import { serveWebApp } from '../web/static.ts';
import { loggerOptions } from '../../toolkit/logging.ts';
import { registerSubsonic } from '../subsonic/index.ts';
import { registerHostOperations } from '../../app/ops/index.ts';
import { registerAlbumCoverRoute } from '../../core/catalog/enrich/index.ts';
import { registerAvatarRoute } from '../../core/profiles/avatars.ts';

export interface HttpServerOptions {
  /** The request log's level (config.ts LOG_LEVEL), or false for none. */
  logger: LogLevel | false;
  /** The configured ones when absent. */
  timeouts?: HttpTimeouts | undefined;
  /** Whose X-Forwarded-For gives the client's address; off when absent. */
  trustProxy?: TrustProxy | undefined;
  /** The host's public URL (config.ts): when it is https, answers ask browsers to keep to https. */
  publicUrl?: string | undefined;
}

/**
 * Node's 16 KiB default refuses real requests: a getSongs filter of 2048 CJK
 * characters is about 18 KB once percent-encoded in the URL. 64 KiB leaves room
 * for that plus ordinary headers while still bounding what one request holds.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** XRPC bodies are small JSON records; operations that take more (import batches) raise their own limit. */
export const XRPC_BODY_LIMIT = 64 * 1024;

/** Fastify's own default, kept for the scrobbler protocols' form bodies; ListenBrainz sets its own. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Node's answer to a request it could not parse, in the spec's error shape instead of Fastify's. */
function clientErrorResponse(error: NodeJS.ErrnoException): { status: number; error: XrpcErrorName; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: 'RequestHeaderFieldsTooLarge', message: `request headers (with the URL) exceed ${MAX_HEADER_BYTES} bytes` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: 'RequestTimeout', message: 'the request was not received in time' };
    default:
      return { status: 400, error: 'InvalidRequest', message: 'malformed HTTP request' };
  }
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket, https: boolean): void {
  // A reset connection, or one Node already answered, has no one left to tell.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, ...body } = clientErrorResponse(error);
    const text = JSON.stringify(body);
    const type = 'application/json; charset=utf-8';
    const extra = Object.entries(securityHeaders(type, https)).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${type}\r\n${extra}Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy();
}

/**
 * Bounds on what one connection may hold: headers and whole requests must
 * arrive within their timeouts (a client trickling a byte every few seconds
 * is cut off), and a kept-alive connection with no next request is closed
 * after the idle timeout. No socket inactivity timeout: the server is silent
 * while it works on a request (a queued Wrapped), and that must not cut the
 * connection. Node checks the first two every `connectionsCheckingInterval`,
 * so that interval follows the shortest of them rather than Node's 30 s.
 */
function connectionLimits(timeouts: HttpTimeouts) {
  return {
    keepAliveTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      maxHeaderSize: MAX_HEADER_BYTES,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    },
  };
}

function ajvFor(coerce: boolean) {
  const ajv = new Ajv.default({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: true, allErrors: false });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Deeper than any body an operation or protocol takes (an import batch's client records, 32 deep
 * themselves, sit 3 levels down). V8 parses any depth, but code that recurses over a body
 * (JSON.stringify, validators) would overflow the stack and answer 500.
 */
const MAX_BODY_DEPTH = 64;

/** A client error with the status each host's error handler maps into its own shape. */
function tooDeep(): Error {
  return Object.assign(new Error(`the body is nested deeper than ${MAX_BODY_DEPTH} levels`), { statusCode: 400 });
}

/** Fastify's types take hops as a function: trust the nearest `n` proxies in front of the server. */
function fastifyTrustProxy(trust: TrustProxy) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** A Fastify instance with the error conventions of the spec: every non-2xx body is `{ error, message? }`. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const https = options.publicUrl?.startsWith('https:') ?? false;
  const app = Fastify({
    ...connectionLimits(options.timeouts ?? DEFAULT_HTTP_TIMEOUTS),
    bodyLimit: DEFAULT_BODY_LIMIT,
    clientErrorHandler: (error, socket) => answerClientError(error, socket, https),
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    logger: loggerOptions(options.logger),
  });
  registerSecurityHeaders(app, https);
  const queryAjv = ajvFor(true);
  const bodyAjv = ajvFor(false);
  // Query strings are text and must be coerced; JSON bodies are typed and must not be.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : queryAjv.compile(schema),
  );
  // Parsed bodies only: ListenBrainz reads its body as text and checks listens itself.
  app.addHook('preValidation', async (request) => {
    if (request.body !== null && typeof request.body === 'object' && findInJson(request.body, (_value, depth) => (depth > MAX_BODY_DEPTH ? true : null))) {
      throw tooDeep();
    }
  });
  app.setErrorHandler((error: FastifyError | XrpcError, request, reply) => {
    if (error instanceof XrpcError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(error.body());
    }
    if (error.validation) {
      return reply.status(400).send({ error: 'InvalidRequest', message: error.message });
    }
    const problem = clientDataProblem(error);
    if (problem) return reply.status(400).send({ error: 'InvalidRequest', message: problem });
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.status(status).send({ error: errorNameForStatus(status), message: error.message });
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'InternalServerError', message: 'Internal server error' });
  });
  return app;
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

/** The API host: XRPC operations, plain routes, and the OpenAPI document describing both. */
export function buildApiServer(
  ctx: AppContext,
  declarations: { operations: readonly AnyOperation[]; routes: readonly AnyRoute[] },
  options: HttpServerOptions,
): FastifyInstance {
  const app = createHttpServer(options);
  registerHostOperations(app, ctx, 'api');
  const openApi = buildOpenApiDocument(ctx.config.publicUrl, declarations.operations, declarations.routes);
  const limiter = new HeavyReadLimiter();
  for (const operation of declarations.operations) registerOperation(app, ctx, operation, limiter);
  for (const route of declarations.routes) registerRoute(app, ctx, route);
  registerSubsonic(app, ctx);
  registerAlbumCoverRoute(app, ctx);
  registerAvatarRoute(app, ctx);
  app.get('/openapi.json', async () => openApi);
  app.setNotFoundHandler(async (request, reply) => {
    const served = serveWebApp(request, reply);
    if (served) return served;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/xrpc/')) {
      return reply.status(404).send({ error: 'MethodNotImplemented', message: `no operation ${path.slice(6)}` });
    }
    return reply.status(404).send({ error: 'NotFound', message: `no route ${request.method} ${path}` });
  });
  return app;
}
