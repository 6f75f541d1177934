/**
 * OAuth 2.0 authorization code grant (RFC 6749) with PKCE (RFC 7636), as every provider here
 * speaks it: the authorize URL the browser is sent to, and the token endpoint calls for a code
 * and for a refresh. The client authenticates with HTTP Basic, which all three accept.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ProviderConfig, ProviderName } from '../../toolkit/config.ts';
import { ProviderError } from './errors.ts';
import { AccessTokenRefused, providerFetch, providerJson } from './http.ts';
import type { OAuthSettings, TokenSet } from './types.ts';

/** A PKCE verifier (43+ unreserved characters) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  config: ProviderConfig,
  settings: OAuthSettings,
  request: { state: string; redirectUri: string; codeChallenge: string | undefined },
): string {
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  if (settings.scopes.length > 0) url.searchParams.set('scope', settings.scopes.join(' '));
  if (request.codeChallenge) {
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [name, value] of Object.entries(settings.authorizeParams ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

interface TokenResponse {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  scope?: unknown;
}

/** The provider refused the grant itself: the code was bad or used, or the refresh token revoked. */
export class GrantRefused extends Error {}

async function tokenRequest(provider: ProviderName, config: ProviderConfig, form: Record<string, string>): Promise<TokenSet> {
  const basic = Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64');
  const response = await providerFetch(
    provider,
    config.tokenUrl,
    {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    },
    [400],
  ).catch((error: unknown) => {
    // A 401 from a token endpoint is about the client, not a user's token: the server's settings are wrong.
    if (error instanceof AccessTokenRefused) {
      throw new ProviderError(
        'Refused',
        provider,
        `${provider} refused this server's client id or secret; check ${provider.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET`,
      );
    }
    throw error;
  });
  const body = await providerJson<TokenResponse & { error?: unknown }>(provider, response);
  if (response.status === 400) throw new GrantRefused(`${provider} refused the grant (${typeof body.error === 'string' ? body.error : 'invalid_grant'})`);
  if (typeof body.access_token !== 'string' || body.access_token === '')
    throw new ProviderError('Unavailable', provider, `${provider} sent a token answer without an access token`);
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' ? body.refresh_token : undefined,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000) : undefined,
    scope: typeof body.scope === 'string' ? body.scope : undefined,
  };
}

export function exchangeCode(
  provider: ProviderName,
  config: ProviderConfig,
  request: { code: string; redirectUri: string; codeVerifier: string | undefined },
): Promise<TokenSet> {
  return tokenRequest(provider, config, {
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    ...(request.codeVerifier ? { code_verifier: request.codeVerifier } : {}),
  });
}

export function refreshGrant(provider: ProviderName, config: ProviderConfig, refreshToken: string): Promise<TokenSet> {
  return tokenRequest(provider, config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}
