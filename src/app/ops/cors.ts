import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { CorsConfig } from '../../toolkit/limits-config.ts';

/** So a page can read how much of its budget is left, and when to come back. */
const EXPOSED_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-reset-in'];

/** Browsers may cache a preflight answer this long (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/** A listed origin: any method, with the Authorization header and cookies. */
const credentialed = (origin: string): FastifyCorsOptions => ({
  origin,
  credentials: true,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type'],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: PREFLIGHT_MAX_AGE,
});

/**
 * Any other origin under `*`: reads and unauthenticated calls, no credentials. Browsers then refuse
 * to send cookies with a preflighted request, and Authorization is not an allowed header.
 */
const anonymous: FastifyCorsOptions = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'HEAD', 'POST'],
  allowedHeaders: ['Content-Type'],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: PREFLIGHT_MAX_AGE,
};

function policyFor(cors: CorsConfig, origin: string | undefined): FastifyCorsOptions {
  if (origin !== undefined && cors.credentialedOrigins.includes(origin)) return credentialed(origin);
  return cors.anyOrigin ? anonymous : { origin: false };
}

/**
 * CORS on every route of the instance, answering preflight OPTIONS requests; the policy is chosen
 * per request from its Origin. Same-origin requests (the web app's own) are not concerned.
 */
export function registerCors(app: FastifyInstance, cors: CorsConfig): void {
  app.register(fastifyCors, {
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) =>
      callback(null, policyFor(cors, request.headers.origin)),
  });
}
