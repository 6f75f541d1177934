import { Refusal } from '../../toolkit/errors.ts';

/** Last.fm's numeric error codes, as clients test for them. */
export const LastfmErrorCode = {
  InvalidService: 2,
  InvalidMethod: 3,
  AuthenticationFailed: 4,
  InvalidParameters: 6,
  InvalidResource: 7,
  InvalidSessionKey: 9,
  InvalidApiKey: 10,
  InvalidSignature: 13,
  UnauthorizedToken: 14,
  TokenExpired: 15,
  TemporarilyUnavailable: 16,
  RateLimitExceeded: 29,
} as const;

type Code = (typeof LastfmErrorCode)[keyof typeof LastfmErrorCode];

/** The HTTP statuses Last.fm answers each code with. */
const HTTP_STATUS: Record<Code, number> = {
  2: 400,
  3: 400,
  4: 403,
  6: 400,
  7: 400,
  9: 403,
  10: 403,
  13: 403,
  14: 403,
  15: 403,
  16: 503,
  29: 429,
};

/** A failure answered as `<lfm status="failed"><error code="N">` or `{ error: N, message }`. */
export class LastfmError extends Refusal {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

export const invalidService = (message: string) => new LastfmError(LastfmErrorCode.InvalidService, `Invalid service - ${message}`);
export const invalidMethod = (message: string) => new LastfmError(LastfmErrorCode.InvalidMethod, `Invalid Method - ${message}`);
export const authenticationFailed = (message: string) => new LastfmError(LastfmErrorCode.AuthenticationFailed, `Authentication Failed - ${message}`);
export const invalidParameters = (message: string) => new LastfmError(LastfmErrorCode.InvalidParameters, `Invalid parameters - ${message}`);
export const invalidResource = (message: string) => new LastfmError(LastfmErrorCode.InvalidResource, `Invalid resource specified - ${message}`);
export const invalidSessionKey = () => new LastfmError(LastfmErrorCode.InvalidSessionKey, 'Invalid session key - Please re-authenticate');
export const invalidApiKey = () => new LastfmError(LastfmErrorCode.InvalidApiKey, 'Invalid API key - You must be granted a valid key by this Earshot server');
export const invalidSignature = () => new LastfmError(LastfmErrorCode.InvalidSignature, 'Invalid method signature supplied');
export const unauthorizedToken = () => new LastfmError(LastfmErrorCode.UnauthorizedToken, 'Unauthorized Token - This token has not been authorized');
export const tokenExpired = () => new LastfmError(LastfmErrorCode.TokenExpired, 'This token has expired');
export const rateLimitExceeded = () =>
  new LastfmError(LastfmErrorCode.RateLimitExceeded, 'Rate limit exceeded - Your API key has made too many requests in a short period');
export const temporarilyUnavailable = () =>
  new LastfmError(LastfmErrorCode.TemporarilyUnavailable, 'There was a temporary error processing your request. Please try again');
/** Last.fm answers an unknown user, track, artist or album with error 6 and a bare message ("User not found"). */
export const notFound = (message: string) => new LastfmError(LastfmErrorCode.InvalidParameters, message);
