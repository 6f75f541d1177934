import type { FastifyRequest } from 'fastify';

/**
 * Sign-ins refused in answers whose HTTP status does not say so (Subsonic answers every failure
 * with HTTP 200, Audioscrobbler's BADAUTH is a 200 too), marked for the per-account sign-in
 * budget (ops/rate-limits.ts) to count them as it counts a 401.
 */
const refused = new WeakSet<FastifyRequest>();

export const markSignInRefused = (request: FastifyRequest): void => void refused.add(request);

export const isSignInRefused = (request: FastifyRequest): boolean => refused.has(request);
