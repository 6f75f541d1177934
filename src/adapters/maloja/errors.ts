import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { clientDataProblem } from '../../toolkit/db/index.ts';

/** Every error type this host answers with; Maloja's own names where Maloja has one. */
export type MalojaErrorType =
  | 'authentication_fail'
  | 'missing_scrobble_data'
  | 'invalid_scrobble_data'
  | 'malformed_request'
  | 'rate_limit_exceeded'
  | 'not_found'
  | 'unknown_error';

/**
 * A refusal in Maloja's shape: `{status, error: {type, value, desc}}`. Maloja answers
 * `failure` for a request it understood and turned down, `error` for one it could not serve.
 */
export class MalojaError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly type: MalojaErrorType,
    readonly value: unknown,
    desc: string,
    readonly status: 'failure' | 'error' = 'failure',
  ) {
    super(desc);
  }

  body() {
    return { status: this.status, error: { type: this.type, value: this.value, desc: this.message } };
  }
}

/** Maloja's answer to a missing or wrong key on a call that needs one. */
export const authenticationFailed = () => new MalojaError(403, 'authentication_fail', null, 'Invalid or missing authentication');

/** `missing` in Maloja's names for the fields: `track_artists`, `track_title`. */
export const missingScrobbleData = (missing: string[]) =>
  new MalojaError(400, 'missing_scrobble_data', missing, 'The scrobble is missing needed parameters.');

export const invalidScrobbleData = (problem: string) => new MalojaError(400, 'invalid_scrobble_data', null, `The scrobble cannot be stored: ${problem}.`);

export const malformedRequest = (problem: string) => new MalojaError(400, 'malformed_request', null, problem, 'error');

/** Maloja has no rate limit; the refusal keeps its shape, and Retry-After tells when to come back. */
export const rateLimitExceeded = (retryAfterSeconds: number) =>
  new MalojaError(429, 'rate_limit_exceeded', retryAfterSeconds, `Rate limit exceeded, retry in ${retryAfterSeconds} seconds`);

function asMalojaError(error: FastifyError | Error): MalojaError | null {
  if (error instanceof MalojaError) return error;
  const problem = clientDataProblem(error);
  if (problem) return invalidScrobbleData(problem);
  const status = (error as FastifyError).statusCode ?? 500;
  if (status < 500) return malformedRequest(error.message);
  return null;
}

/** The scope's error handler: every failure in Maloja's shape, never a bare 500 page. */
export function sendMalojaError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const refusal = asMalojaError(error);
  if (refusal) return reply.status(refusal.httpStatus).send(refusal.body());
  request.log.error({ err: error }, 'maloja request failed');
  return reply.status(500).send(new MalojaError(500, 'unknown_error', null, 'The server has encountered an exception.').body());
}
