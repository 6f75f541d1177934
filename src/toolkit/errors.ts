/** Every error name the API answers with: a closed set, so clients can rely on it and typos fail to compile. */
export const XRPC_ERROR_NAMES = [
  'InvalidRequest',
  'AuthMissing',
  'AuthenticationFailed',
  'InvalidToken',
  'ExpiredToken',
  'InsufficientScope',
  'Forbidden',
  'SignupClosed',
  'NotFound',
  'MethodNotImplemented',
  'MethodNotAllowed',
  'RequestTimeout',
  'HandleTaken',
  /** 409: a corrected play would equal one the user already has (same song at the same time). */
  'DuplicateScrobble',
  'CheckpointMismatch',
  'ImportComplete',
  /** Undoing a catalog edit was refused: it is already undone, or a later edit still in force changed the same entries. */
  'UndoConflict',
  /** A catalog fix would give an entry the name or MBID another entry has: merge the two instead. */
  'EntryExists',
  'PayloadTooLarge',
  'UnsupportedMediaType',
  'RequestHeaderFieldsTooLarge',
  'RateLimitExceeded',
  /** 409: an account already holds as many of something (API keys, access tokens) as it may. */
  'LimitExceeded',
  'ProviderNotConfigured',
  'NotConnected',
  'ConnectionBroken',
  'NoActiveDevice',
  'ProviderRefused',
  'ProviderUnavailable',
  /** 503 from /ready: the database is unreachable or lacks migrations this code ships. */
  'NotReady',
  'InternalServerError',
] as const;
export type XrpcErrorName = (typeof XRPC_ERROR_NAMES)[number];

/**
 * A request refused on purpose, in some protocol's terms: the client's doing, answered with
 * `status` (the HTTP status its protocol gives it) and never logged as a failure of the server.
 * The HTTP kit's one error path (adapters/http/error-path.ts) knows a client error by this.
 */
export abstract class Refusal extends Error {
  abstract readonly status: number;
}

/** An error that reaches the client as the spec's error body `{ error, message }`. */
export class XrpcError extends Refusal {
  constructor(
    readonly status: number,
    readonly error: XrpcErrorName,
    message?: string,
    /** Sent as Retry-After (a 429 or 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message ?? error);
  }

  /** The same failure under a more specific error name. */
  withName(error: XrpcErrorName): XrpcError {
    return new XrpcError(this.status, error, this.message, this.retryAfterSeconds);
  }

  body(): { error: XrpcErrorName; message?: string } {
    return this.message === this.error ? { error: this.error } : { error: this.error, message: this.message };
  }
}

export const invalidRequest = (message: string) => new XrpcError(400, 'InvalidRequest', message);

/** `raw` as an http: or https: URL, or a 400 naming `field` (a URL the server will call: a target, a source, a webhook). */
export function httpUrlParam(field: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`${field} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidRequest(`${field} must be an http(s) URL, got "${raw}"`);
  return url;
}
export const authMissing = (message = 'Authentication required') => new XrpcError(401, 'AuthMissing', message);
export const invalidToken = (message = 'Token is invalid, expired or revoked') => new XrpcError(401, 'InvalidToken', message);
export const expiredToken = (message = 'Token has expired') => new XrpcError(401, 'ExpiredToken', message);
export const insufficientScope = (message = 'This credential may not do that; use a sign-in session or an access token') =>
  new XrpcError(403, 'InsufficientScope', message);
export const forbidden = (message: string) => new XrpcError(403, 'Forbidden', message);
export const notFound = (message: string) => new XrpcError(404, 'NotFound', message);
export const conflict = (error: XrpcErrorName, message: string) => new XrpcError(409, error, message);

/** Error names by status for errors raised below the application (parsers, limits). */
export function errorNameForStatus(status: number): XrpcErrorName {
  switch (status) {
    case 401:
      return 'AuthMissing';
    case 404:
      return 'NotFound';
    case 405:
      return 'MethodNotAllowed';
    case 413:
      return 'PayloadTooLarge';
    case 415:
      return 'UnsupportedMediaType';
    case 429:
      return 'RateLimitExceeded';
    default:
      return status >= 500 ? 'InternalServerError' : 'InvalidRequest';
  }
}
