import { Refusal, XrpcError } from '../../toolkit/errors.ts';

/**
 * How a library request fails, named once for both doors into the library: the XRPC library
 * operations answer with the status and error name below, the Subsonic API with its own code for
 * the same failure (adapters/subsonic/error-codes.ts; the spec's source maps 10 → 400, 40 → 401,
 * 50 → 403, 70 → 404).
 */
export const LIBRARY_FAILURES = {
  Generic: { status: 400, error: 'InvalidRequest' },
  MissingParameter: { status: 400, error: 'InvalidRequest' },
  WrongCredentials: { status: 401, error: 'AuthenticationFailed' },
  TokenAuthUnsupported: { status: 401, error: 'AuthenticationFailed' },
  AuthMechanismUnsupported: { status: 401, error: 'AuthenticationFailed' },
  ConflictingAuth: { status: 400, error: 'InvalidRequest' },
  InvalidApiKey: { status: 401, error: 'AuthenticationFailed' },
  NotAuthorized: { status: 403, error: 'Forbidden' },
  NotFound: { status: 404, error: 'NotFound' },
} as const;

export type LibraryFailure = keyof typeof LIBRARY_FAILURES;

export class LibraryError extends Refusal {
  constructor(
    readonly failure: LibraryFailure,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return LIBRARY_FAILURES[this.failure].status;
  }

  /** The same failure as the XRPC side answers it. */
  toXrpc(): XrpcError {
    const { status, error } = LIBRARY_FAILURES[this.failure];
    return new XrpcError(status, error, this.message);
  }
}

export const missingParameter = (name: string) => new LibraryError('MissingParameter', `required parameter ${name} is missing`);
export const libraryNotFound = (message: string) => new LibraryError('NotFound', message);
export const notAuthorized = (message: string) => new LibraryError('NotAuthorized', message);
export const invalidParameter = (message: string) => new LibraryError('Generic', message);
