import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import type { HostName } from '../host-name.ts';
import { registerCors } from './cors.ts';
import { registerOperationsEndpoints } from './endpoints.ts';
import { registerRateLimits } from './rate-limits.ts';
import { accountOf } from './submitters.ts';

/**
 * What a host open to the world needs before its routes are declared: health, readiness and
 * metrics (first, so the request metrics see every route), CORS, then the rate limits on each route.
 */
export function registerHostOperations(app: FastifyInstance, ctx: AppContext, host: HostName): void {
  registerOperationsEndpoints(app, ctx, host);
  registerCors(app, ctx.config.cors);
  registerRateLimits(app, ctx.config.rateLimits, accountOf(ctx));
}
