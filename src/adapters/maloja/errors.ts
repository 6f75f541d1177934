import { Refusal } from '../../toolkit/errors.ts';
import type { Protocol } from '../http/endpoint.ts';
import type { ClassifiedError } from '../http/error-path.ts';

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
export class MalojaError extends Refusal {
  constructor(
    readonly status: number,
    readonly type: MalojaErrorType,
    readonly value: unknown,
    desc: string,
    readonly outcome: 'failure' | 'error' = 'failure',
  ) {
    super(desc);
  }

  body() {
    return { status: this.outcome, error: { type: this.type, value: this.value, desc: this.message } };
  }
}

/** Maloja's answer to a missing or wrong key on a call that needs one. */
export const authenticationFailed = () => new MalojaError(403, 'authentication_fail', null, 'Invalid or missing authentication');

/** `missing` in Maloja's names for the fields: `track_artists`, `track_title`. */
export const missingScrobbleData = (missing: string[]) => new MalojaError(400, 'missing_scrobble_data', missing, 'The scrobble is missing needed parameters.');

export const invalidScrobbleData = (problem: string) => new MalojaError(400, 'invalid_scrobble_data', null, `The scrobble cannot be stored: ${problem}.`);

export const malformedRequest = (problem: string) => new MalojaError(400, 'malformed_request', null, problem, 'error');

/** Maloja has no rate limit; the refusal keeps its shape, and Retry-After tells when to come back. */
export const rateLimitExceeded = (retryAfterSeconds: number) =>
  new MalojaError(429, 'rate_limit_exceeded', retryAfterSeconds, `Rate limit exceeded, retry in ${retryAfterSeconds} seconds`);

/** Every failure in Maloja's shape, never a bare 500 page. */
function asMalojaError(error: ClassifiedError): MalojaError {
  if (error.internal) return new MalojaError(500, 'unknown_error', null, 'The server has encountered an exception.');
  if (error.cause instanceof MalojaError) return error.cause;
  if (error.kind === 'data') return invalidScrobbleData(error.message);
  return malformedRequest(error.message);
}

/** Maloja's native API under /apis/mlj_1: its error shape; other methods of a path get its 404, as they always did. */
export const MALOJA: Protocol = {
  name: 'maloja',
  renderError: (error, _request, reply) => {
    const refusal = asMalojaError(error);
    return reply.status(refusal.status).send(refusal.body());
  },
};
