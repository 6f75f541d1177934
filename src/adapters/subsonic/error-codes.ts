import type { LibraryError, LibraryFailure } from '../../core/library/errors.ts';

/** Subsonic's error code for each way a library request fails (answered with HTTP 200, `status: "failed"`). */
const SUBSONIC_CODES: Readonly<Record<LibraryFailure, number>> = {
  Generic: 0,
  MissingParameter: 10,
  WrongCredentials: 40,
  // Subsonic clients answer 41 by retrying with the password (p=): keys older than sealed keys allow only that.
  TokenAuthUnsupported: 41,
  AuthMechanismUnsupported: 42,
  ConflictingAuth: 43,
  InvalidApiKey: 44,
  NotAuthorized: 50,
  NotFound: 70,
};

export const subsonicCode = (error: LibraryError): number => SUBSONIC_CODES[error.failure];
