import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { authorize } from '../auth/authenticate.ts';
import type { Viewer } from '../auth/viewer.ts';
import { clientDataProblem } from '../db/index.ts';
import { errorNameForStatus, XrpcError } from './errors.ts';
import { findInJson } from './json-walk.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { AnyOperation, AuthMode } from './operation.ts';
import type { AnyRoute } from './route.ts';
import { redactUrl } from './redact.ts';

export interface HttpServerOptions {
  logger: boolean;
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

/** A Fastify instance with the error conventions of the spec: every non-2xx body is `{ error, message? }`. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger
      ? { level: 'info', serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }) } }
      : false,
  });
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
    if (error instanceof XrpcError) return reply.status(error.status).send(error.body());
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

function registerOperation(app: FastifyInstance, ctx: AppContext, operation: AnyOperation): void {
  const url = `/xrpc/${operation.nsid}`;
  const method = operation.kind === 'query' ? 'GET' : 'POST';
  const credentials = credentialsCheck(ctx, operation.auth);
  app.route({
    method,
    url,
    onRequest: credentials.onRequest,
    schema: {
      querystring: operation.params,
      ...(operation.input ? { body: operation.input } : {}),
      response: { 200: operation.output },
    },
    handler: async (request) => {
      const viewer = credentials.viewerOf(request);
      return operation.handler({ params: request.query as never, input: request.body as never, viewer: viewer as never, ctx });
    },
  });
  app.route({
    method: method === 'GET' ? 'POST' : 'GET',
    url,
    handler: async () => {
      throw new XrpcError(405, 'MethodNotAllowed', `${operation.nsid} is a ${operation.kind}; use ${method}`);
    },
  });
}

function registerRoute(app: FastifyInstance, ctx: AppContext, route: AnyRoute): void {
  const credentials = credentialsCheck(ctx, route.auth);
  app.route({
    method: route.method,
    url: route.path,
    onRequest: credentials.onRequest,
    schema: {
      params: route.pathParams,
      ...(route.body ? { body: route.body } : {}),
      ...(route.success.schema ? { response: { [route.success.status]: route.success.schema } } : {}),
    },
    handler: async (request, reply) => {
      const viewer = credentials.viewerOf(request);
      const body = await route.handler({ pathParams: request.params as never, body: request.body as never, viewer: viewer as never, ctx });
      reply.status(route.success.status);
      return route.success.schema ? body : reply.send();
    },
  });
}

/** The API host: XRPC operations, plain routes, and the OpenAPI document describing both. */
export function buildApiServer(
  ctx: AppContext,
  declarations: { operations: readonly AnyOperation[]; routes: readonly AnyRoute[] },
  options: HttpServerOptions,
): FastifyInstance {
  const app = createHttpServer(options);
  const openApi = buildOpenApiDocument(ctx.config.publicUrl, declarations.operations, declarations.routes);
  for (const operation of declarations.operations) registerOperation(app, ctx, operation);
  for (const route of declarations.routes) registerRoute(app, ctx, route);
  app.get('/openapi.json', async () => openApi);
  app.get('/health', async () => ({ status: 'ok' }));
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/xrpc/')) {
      return reply.status(404).send({ error: 'MethodNotImplemented', message: `no operation ${path.slice(6)}` });
    }
    return reply.status(404).send({ error: 'NotFound', message: `no route ${request.method} ${path}` });
  });
  return app;
}
