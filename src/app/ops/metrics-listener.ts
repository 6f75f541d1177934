import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../../adapters/http/server.ts';
import type { AppContext } from '../../core/context.ts';
import { listenFailure } from '../../toolkit/operating-errors.ts';
import { registerEndpoints } from '../../adapters/http/register.ts';
import { metricsEndpoint } from './endpoints.ts';

/**
 * /metrics on its own address (EARSHOT_METRICS_PORT on EARSHOT_METRICS_HOST), listening, when
 * configured: the public hosts then do not serve it, and a scraper reaches it on an interface
 * the public does not.
 */
export async function startMetricsListener(ctx: AppContext): Promise<FastifyInstance | undefined> {
  const { port, host } = ctx.config.metrics;
  if (port === undefined) return undefined;
  const app = createHttpServer({ logger: false, timeouts: ctx.config.httpTimeouts });
  registerEndpoints(app, ctx, [metricsEndpoint('metrics')]);
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    throw listenFailure(error, host, port, 'EARSHOT_METRICS_PORT');
  }
  return app;
}
