/**
 * The HTTP server every host starts from (the API host, src/app/api-host.ts; the scrobbler host; the
 * metrics listener): connection limits, body depth, security headers, and the spec's error shape.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts, type LogLevel, type TrustProxy } from '../../toolkit/config.ts';
import type { XrpcErrorName } from '../../toolkit/errors.ts';
import { findInJson } from '../../toolkit/json-walk.ts';
import { registerSecurityHeaders, securityHeaders } from './security-headers.ts';
import { loggerOptions } from '../../toolkit/logging.ts';
import { errorPath } from './error-path.ts';
import { listRoutes } from './route-listing.ts';
import { renderXrpcError } from './xrpc-protocol.ts';

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
    const extra = Object.entries(securityHeaders(type, https))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: ${type}\r\n${extra}Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
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

/** Each host's not yet compiled validators and serializers, for compileEverySchema. */
const UNCOMPILED = Symbol('uncompiled schemas');
type Uncompiled = Array<() => unknown>;

/**
 * A route's validator, compiled on the route's first request rather than when the server starts.
 * Why: compiling the validators and serializers of every route (some 400 across both hosts) was a
 * third of a server's start-up processor time, paid by every process and every test app, while a
 * process typically serves a handful of routes. A test compiles them all (compileEverySchema), so a
 * bad schema still fails before it ships.
 */
function compiledOnFirstUse(uncompiled: Uncompiled, compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const compiled = () => (validate ??= compile());
  uncompiled.push(compiled);
  const lazy = ((data: unknown) => {
    const validate = compiled();
    const valid = validate(data);
    lazy.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  lazy.errors = null;
  return lazy;
}

/** Fastify's own response serializer (fast-json-stringify), built on a route's first answer; see compiledOnFirstUse. */
const buildSerializer = SerializerSelector()(undefined, undefined);
function serializerOnFirstUse(uncompiled: Uncompiled, route: Parameters<typeof buildSerializer>[0]): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  const compiled = () => (serialize ??= buildSerializer(route));
  uncompiled.push(compiled);
  return (data) => compiled()(data);
}

/** Compiles every validator and serializer of a ready host now (a test: each schema builds). */
export function compileEverySchema(host: FastifyInstance): number {
  const uncompiled = (host as unknown as Record<symbol, Uncompiled>)[UNCOMPILED] ?? [];
  for (const compile of uncompiled) compile();
  return uncompiled.length;
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
  listRoutes(app);
  registerSecurityHeaders(app, https);
  const queryAjv = ajvFor(true);
  const bodyAjv = ajvFor(false);
  const uncompiled: Uncompiled = [];
  app.decorate(UNCOMPILED, uncompiled);
  // Query strings are text and must be coerced; JSON bodies are typed and must not be.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    compiledOnFirstUse(uncompiled, () => (httpPart === 'body' ? bodyAjv.compile(schema) : queryAjv.compile(schema))),
  );
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) =>
    serializerOnFirstUse(uncompiled, { schema, method, url, httpStatus: httpStatus ?? 'default' }),
  );
  // Parsed bodies only: ListenBrainz reads its body as text and checks listens itself.
  app.addHook('preValidation', async (request) => {
    if (request.body !== null && typeof request.body === 'object' && findInJson(request.body, (_value, depth) => (depth > MAX_BODY_DEPTH ? true : null))) {
      throw tooDeep();
    }
  });
  app.setErrorHandler(errorPath('http', renderXrpcError));
  return app;
}
