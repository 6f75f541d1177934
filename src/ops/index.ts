import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { registerCors } from './cors.ts';
import { registerRateLimits } from './rate-limits.ts';

/** What a host open to the world needs before its routes are declared: CORS, then the rate limits on each route. */
export function registerOpenAccess(app: FastifyInstance, config: Config): void {
  registerCors(app, config.cors);
  registerRateLimits(app, config.rateLimits);
}
