import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientDataProblem } from '../../toolkit/db/index.ts';
import { Refusal } from '../../toolkit/errors.ts';

/**
 * A failure that is the client's: its HTTP status and what to tell it. `kind` says why: a
 * refusal raised on purpose (`cause` is the Refusal, with its protocol's own codes), a request
 * the HTTP layer could not take (validation, body parsing, size and rate limits), or a value the
 * database cannot store.
 */
export interface ClientError {
  internal: false;
  kind: 'refusal' | 'request' | 'data';
  status: number;
  message: string;
  cause: unknown;
}

/** Anything else: the server's own failure, logged once by the error path. */
export interface InternalError {
  internal: true;
  cause: unknown;
}

export type ClassifiedError = ClientError | InternalError;

/** The one place that tells a client's error from the server's, for every route of every protocol. */
export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof Refusal) return { internal: false, kind: 'refusal', status: error.status, message: error.message, cause: error };
  const problem = clientDataProblem(error);
  if (problem) return { internal: false, kind: 'data', status: 400, message: problem, cause: error };
  // Fastify's own errors (validation, content type, body size and parsing) and the rate limits' carry a status.
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status < 500) return { internal: false, kind: 'request', status, message: (error as Error).message, cause: error };
  return { internal: true, cause: error };
}

/** How a protocol writes a classified error in its own shape (status, body, content type). */
export type ErrorRenderer = (error: ClassifiedError, request: FastifyRequest, reply: FastifyReply) => unknown;

/** A Fastify error handler: classify, log the server's own failures once, let the protocol render. */
export function errorPath(protocol: string, render: ErrorRenderer) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const classified = classifyError(error);
    if (classified.internal) request.log.error({ err: error, protocol }, 'request failed');
    return render(classified, request, reply);
  };
}
