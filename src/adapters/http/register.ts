import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { XrpcError } from '../../toolkit/errors.ts';
import { methodsOf, type AnyEndpoint, type HttpMethod, type Protocol } from './endpoint.ts';
import { errorPath } from './error-path.ts';

/** The route's URL inside a plugin registered with `prefix`; endpoints write their path in full. */
function urlWithin(path: string, prefix: string): string {
  if (!path.startsWith(prefix)) throw new Error(`${path} is not under ${prefix}`);
  return path.slice(prefix.length) || '/';
}

function registerEndpoint(app: FastifyInstance, ctx: AppContext, endpoint: AnyEndpoint, prefix: string): void {
  const credentials = new WeakMap<FastifyRequest, unknown>();
  const check = endpoint.credentials;
  const hooks = check
    ? {
        [check.stage === 'headers' ? 'onRequest' : 'preHandler']: async (request: FastifyRequest) =>
          void credentials.set(request, await check.check(request, ctx)),
      }
    : {};
  app.route({
    ...endpoint.route,
    ...hooks,
    method: methodsOf(endpoint),
    url: urlWithin(endpoint.path, prefix),
    config: { endpoint },
    errorHandler: errorPath(endpoint.protocol.name, endpoint.protocol.renderError),
    handler: (request, reply) => endpoint.handler({ request, reply, ctx, credentials: credentials.get(request) }),
  });
}

/**
 * The one 405 rule: a path declared for some methods answers the protocol's other methods with
 * 405 and an Allow header, in the protocol's error shape.
 */
function refuseOtherMethods(app: FastifyInstance, endpoints: readonly AnyEndpoint[], prefix: string): void {
  const declared = new Map<string, { protocol: Protocol; methods: Set<HttpMethod> }>();
  for (const endpoint of endpoints) {
    if (!endpoint.protocol.methodNotAllowed) continue;
    const entry = declared.get(endpoint.path) ?? { protocol: endpoint.protocol, methods: new Set<HttpMethod>() };
    for (const method of methodsOf(endpoint)) entry.methods.add(method);
    declared.set(endpoint.path, entry);
  }
  for (const [path, { protocol, methods }] of declared) {
    const rule = protocol.methodNotAllowed!;
    const others = rule.methods.filter((method) => !methods.has(method));
    if (others.length === 0) continue;
    const allowed = [...methods];
    // Fastify answers HEAD wherever GET is declared.
    const allow = [...allowed, ...(methods.has('GET') ? ['HEAD'] : [])].join(', ');
    const refusal = new XrpcError(405, 'MethodNotAllowed', rule.message(path, allowed));
    app.route({
      method: others,
      url: urlWithin(path, prefix),
      config: { refusesMethod: true },
      errorHandler: errorPath(protocol.name, protocol.renderError),
      handler: async (_request, reply) => {
        reply.header('allow', allow);
        throw refusal;
      },
    });
  }
}

/**
 * Registers endpoints on `app` (a host, or a protocol's plugin registered with `prefix`): each
 * route gets its credentials check, the one error path with its protocol's renderer, and the
 * 405 rule on its path. Every host registers every route it serves through this.
 */
export function registerEndpoints(app: FastifyInstance, ctx: AppContext, endpoints: readonly AnyEndpoint[], prefix = ''): void {
  for (const endpoint of endpoints) registerEndpoint(app, ctx, endpoint, prefix);
  refuseOtherMethods(app, endpoints, prefix);
}

/** A protocol's plugin answers what happens outside its endpoints (its 404 handler's body parsing) in its own shape too. */
export function setProtocolErrorPath(scope: FastifyInstance, protocol: Protocol): void {
  scope.setErrorHandler(errorPath(protocol.name, protocol.renderError));
}
