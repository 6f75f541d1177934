import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authMissing, invalidToken, XrpcError } from '../../toolkit/errors.ts';
import type { AppContext } from '../../core/context.ts';
import type { HostName } from '../host-name.ts';
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
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (request) => {
    const state = await readiness(ctx.db);
    if (state.ready) return { status: 'ready' };
    if (state.cause) request.log.warn({ err: state.cause }, 'not ready');
    throw new XrpcError(503, 'NotReady', state.problem);
  });
  if (ctx.config.metrics.port === undefined) registerMetricsEndpoint(app, ctx);
}

/** GET /metrics in Prometheus's text format, behind the metrics token when one is set. */
export function registerMetricsEndpoint(app: FastifyInstance, ctx: AppContext): void {
  app.get('/metrics', async (request, reply) => {
    checkMetricsToken(ctx.config.metrics.token, request.headers.authorization);
    reply.header('content-type', ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function checkMetricsToken(token: string | undefined, authorization: string | undefined): void {
  if (token === undefined) return;
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) throw authMissing('/metrics needs Authorization: Bearer <EARSHOT_METRICS_TOKEN>');
  // Digests have one length whatever was sent, so the comparison takes the same time for any guess.
  if (!timingSafeEqual(digest(given), digest(token))) throw invalidToken('that is not the metrics token');
}
