import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Endpoint, HostName } from '../../adapters/http/endpoint.ts';
import { registerEndpoints } from '../../adapters/http/register.ts';
import { PLAIN_HTTP } from '../../adapters/http/xrpc-protocol.ts';
import { authMissing, invalidToken, XrpcError } from '../../toolkit/errors.ts';
import type { AppContext } from '../../core/context.ts';
import { readiness } from '../../core/ops/readiness.ts';

/** The route label of a request no route matched (404s, and the web app's pages and files): one value, so no URL adds a series. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * What a public host offers for operating it: /health (the process answers), /ready (its
 * database answers and is migrated), /metrics unless that has a listener of its own, and the
 * request metrics of every route of the host. Called first, so the hook sees every route.
 */
export function registerOperationsEndpoints(app: FastifyInstance, ctx: AppContext, host: HostName): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the URL: ids and query strings would make a series per request.
    ctx.metrics.requestServed(host, request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
  });
  registerEndpoints(app, ctx, [healthEndpoint(host), readyEndpoint(host), ...(ctx.config.metrics.port === undefined ? [metricsEndpoint(host)] : [])]);
}

const statusAnswer = (description: string, status: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', properties: { status: { const: status } }, required: ['status'] } } },
});

const healthEndpoint = (host: HostName): Endpoint => ({
  method: 'GET',
  path: '/health',
  host,
  protocol: PLAIN_HTTP,
  summary: 'Whether the process answers',
  openapi: { operationId: 'getHealth', tags: ['ops'], security: [], responses: { '200': statusAnswer('The process answers', 'ok') } },
  handler: async () => ({ status: 'ok' }),
});

const readyEndpoint = (host: HostName): Endpoint => ({
  method: 'GET',
  path: '/ready',
  host,
  protocol: PLAIN_HTTP,
  summary: 'Whether the database answers and has every migration this code ships',
  openapi: {
    operationId: 'getReady',
    tags: ['ops'],
    security: [],
    responses: { '200': statusAnswer('Ready', 'ready'), '503': { description: 'NotReady: the database is unreachable or lacks migrations' } },
  },
  handler: async ({ request, ctx }) => {
    const state = await readiness(ctx.db);
    if (state.ready) return { status: 'ready' };
    if (state.cause) request.log.warn({ err: state.cause }, 'not ready');
    throw new XrpcError(503, 'NotReady', state.problem);
  },
});

/** GET /metrics in Prometheus's text format, behind the metrics token when one is set. */
export const metricsEndpoint = (host: HostName): Endpoint => ({
  method: 'GET',
  path: '/metrics',
  host,
  protocol: PLAIN_HTTP,
  summary: "The server's metrics in Prometheus's text format",
  credentials: {
    stage: 'headers',
    description: 'Authorization: Bearer <EARSHOT_METRICS_TOKEN>, when one is set',
    check: async (request, ctx) => checkMetricsToken(ctx.config.metrics.token, request.headers.authorization),
  },
  openapi: {
    operationId: 'getMetrics',
    tags: ['ops'],
    description: 'Credentials: Authorization: Bearer <EARSHOT_METRICS_TOKEN> when the server sets one.',
    responses: {
      '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } },
      '401': { description: 'AuthMissing or InvalidToken' },
    },
  },
  handler: async ({ reply, ctx }) => {
    reply.header('content-type', ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  },
});

const digest = (text: string) => createHash('sha256').update(text).digest();

function checkMetricsToken(token: string | undefined, authorization: string | undefined): void {
  if (token === undefined) return;
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) throw authMissing('/metrics needs Authorization: Bearer <EARSHOT_METRICS_TOKEN>');
  // Digests have one length whatever was sent, so the comparison takes the same time for any guess.
  if (!timingSafeEqual(digest(given), digest(token))) throw invalidToken('that is not the metrics token');
}
