import { Refusal, XrpcError } from '../../toolkit/errors.ts';

/**
 * How a library request fails, named once for both doors into the library: the Subsonic API
 * answers with the code (HTTP 200, `status: "failed"`), the XRPC library operations with the
 * status and error name, as the spec's source maps them (10 → 400, 40 → 401, 50 → 403, 70 → 404).
 */
export const LIBRARY_FAILURES = {
  Generic: { subsonicCode: 0, status: 400, error: 'InvalidRequest' },
  MissingParameter: { subsonicCode: 10, status: 400, error: 'InvalidRequest' },
  WrongCredentials: { subsonicCode: 40, status: 401, error: 'AuthenticationFailed' },
  // Subsonic clients answer 41 by retrying with the password (p=): keys older than sealed keys allow only that.
  TokenAuthUnsupported: { subsonicCode: 41, status: 401, error: 'AuthenticationFailed' },
  AuthMechanismUnsupported: { subsonicCode: 42, status: 401, error: 'AuthenticationFailed' },
  ConflictingAuth: { subsonicCode: 43, status: 400, error: 'InvalidRequest' },
  InvalidApiKey: { subsonicCode: 44, status: 401, error: 'AuthenticationFailed' },
  NotAuthorized: { subsonicCode: 50, status: 403, error: 'Forbidden' },
  NotFound: { subsonicCode: 70, status: 404, error: 'NotFound' },
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

  get subsonicCode(): number {
    return LIBRARY_FAILURES[this.failure].subsonicCode;
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
