import { XrpcError } from '../../toolkit/errors.ts';
import type { MetadataProviderName, ProviderName, RelayProviderName } from '../../toolkit/config.ts';

/**
 * Why a provider call failed, as a closed set; each maps to one XRPC status and error name
 * (docs/using/providers.md), so a failure is explicit, never an empty answer.
 */
export const PROVIDER_FAILURES = {
  /** The server has no client id for the provider: it is off. */
  NotConfigured: { status: 400, error: 'ProviderNotConfigured' },
  /** The caller has not connected an account of the provider. */
  NotConnected: { status: 404, error: 'NotConnected' },
  /** The provider refused the grant (revoked, or refused after a refresh): reconnect. */
  ConnectionBroken: { status: 409, error: 'ConnectionBroken' },
  /** The streaming service has no active device to control (its 404). */
  NoActiveDevice: { status: 409, error: 'NoActiveDevice' },
  /** The mirrored folder does not exist at the file host. */
  FolderNotFound: { status: 404, error: 'NotFound' },
  /** The provider refused the request itself (e.g. a feature its plan lacks). */
  Refused: { status: 403, error: 'ProviderRefused' },
  /** The provider's 429: Retry-After passes on. */
  RateLimited: { status: 429, error: 'RateLimitExceeded' },
  /** The provider is down, answered 5xx, timed out or sent what cannot be read. */
  Unavailable: { status: 502, error: 'ProviderUnavailable' },
} as const;

export type ProviderFailure = keyof typeof PROVIDER_FAILURES;

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    readonly provider: ProviderName | MetadataProviderName | RelayProviderName,
    message: string,
    /** Seconds, from the provider's Retry-After (RateLimited). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  toXrpc(): XrpcError {
    const { status, error } = PROVIDER_FAILURES[this.failure];
    return new XrpcError(status, error, this.message, this.retryAfterSeconds);
  }
}

/** Runs a provider-backed operation, answering its failures as XRPC errors. */
export async function asXrpcProviderCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ProviderError ? error.toXrpc() : error;
  }
}
