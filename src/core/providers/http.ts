import type { MetadataProviderName, ProviderName, RelayProviderName } from '../../toolkit/config.ts';
import { ProviderError } from './errors.ts';
import { retryAfterSeconds } from '../../toolkit/retry.ts';

/** A provider call that takes longer than this counts as the provider being down. */
export const PROVIDER_TIMEOUT_MS = 30_000;

/**
 * The provider refused the access token (HTTP 401). Not a user-facing failure: connections.ts
 * refreshes the token and tries once more, and only then reports the connection broken.
 */
export class AccessTokenRefused extends Error {
  constructor(readonly provider: ProviderName | MetadataProviderName | RelayProviderName) {
    super(`${provider} refused the access token`);
  }
}

/**
 * fetch for provider APIs: a network failure, timeout or 5xx is ProviderError 'Unavailable', a
 * 429 'RateLimited' (with Retry-After), a 401 AccessTokenRefused. Any other status comes back to
 * the client module, which knows what the provider means by it (`expected` lists the non-2xx
 * statuses it handles; any other 4xx is 'Refused' with the provider's message).
 */
export async function providerFetch(
  provider: ProviderName | MetadataProviderName | RelayProviderName,
  url: string,
  init: RequestInit = {},
  expected: readonly number[] = [],
): Promise<Response> {
  // The limit is on the answer starting, not on its body: a file streamed to a slow player may take minutes.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('provider timeout', 'TimeoutError')), PROVIDER_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal });
  } catch {
    const reason = controller.signal.aborted ? 'did not answer in time' : 'could not be reached';
    throw new ProviderError('Unavailable', provider, `${provider} ${reason}`);
  } finally {
    clearTimeout(timer);
  }
  if (response.ok || expected.includes(response.status)) return response;
  if (response.status === 401) {
    await response.body?.cancel();
    throw new AccessTokenRefused(provider);
  }
  if (response.status === 429) {
    await response.body?.cancel();
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    throw new ProviderError(
      'RateLimited',
      provider,
      `${provider} is limiting requests; try again${retryAfter === undefined ? ' later' : ` in ${retryAfter} s`}`,
      retryAfter ?? 60,
    );
  }
  const detail = await providerMessage(response);
  if (response.status >= 500) throw new ProviderError('Unavailable', provider, `${provider} failed (HTTP ${response.status})${detail}`);
  throw new ProviderError('Refused', provider, `${provider} refused the request (HTTP ${response.status})${detail}`);
}

/** The provider's own explanation, when its error body has one, as ": <text>" (bounded). */
async function providerMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error as Record<string, unknown> | string | undefined;
    message = String((typeof error === 'object' ? error?.message : undefined) ?? body.error_description ?? body.error_summary ?? error ?? text);
  } catch {
    // Not JSON: the text itself.
  }
  message = message.trim().slice(0, 300);
  return message ? `: ${message}` : '';
}

/** The JSON body of a provider answer, or 'Unavailable' when it is not JSON. */
export async function providerJson<T>(provider: ProviderName | MetadataProviderName | RelayProviderName, response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderError('Unavailable', provider, `${provider} sent an answer that is not JSON`);
  }
}
