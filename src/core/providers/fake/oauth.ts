/**
 * The OAuth 2.0 half of a fake provider: an authorize endpoint that consents at once (or denies,
 * when told to) and a token endpoint for the authorization code (with PKCE S256) and refresh
 * token grants, checking the client's Basic credentials as the real ones do. Access tokens expire
 * after `accessTtlSeconds`; grants can be revoked, after which a refresh answers invalid_grant.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { bearerToken, readBody, sendJson } from './server.ts';

interface Grant {
  account: string;
  refreshToken: string;
  revoked: boolean;
}

interface PendingCode {
  account: string;
  redirectUri: string;
  challenge: string | null;
  clientId: string;
}

export interface FakeOAuthOptions {
  clientId: string;
  clientSecret: string;
  accessTtlSeconds?: number;
  /** The account name the authorize endpoint consents as. */
  account?: string;
}

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

export class FakeOAuth {
  readonly clientId: string;
  readonly clientSecret: string;
  accessTtlSeconds: number;
  account: string;
  /** The next authorize request is denied (the user said no). */
  denyNext = false;
  /** Token endpoint calls, by grant type. */
  readonly tokenCalls = { authorization_code: 0, refresh_token: 0 };
  private readonly grants = new Map<string, Grant>();
  private readonly access = new Map<string, { grant: Grant; expiresAt: number }>();
  private readonly codes = new Map<string, PendingCode>();

  constructor(options: FakeOAuthOptions) {
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.accessTtlSeconds = options.accessTtlSeconds ?? 3600;
    this.account = options.account ?? 'fake-user';
  }

  /** Serves GET /oauth/authorize and POST /oauth/token; false for any other path. */
  async handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname === '/oauth/authorize' && request.method === 'GET') {
      this.authorize(response, url);
      return true;
    }
    if (url.pathname === '/oauth/token' && request.method === 'POST') {
      await this.token(request, response);
      return true;
    }
    return false;
  }

  /** A grant made directly, as if a user had consented: for tests that start connected. */
  grant(account = this.account): { accessToken: string; refreshToken: string; expiresIn: number } {
    const grant: Grant = { account, refreshToken: token('refresh'), revoked: false };
    this.grants.set(grant.refreshToken, grant);
    return { accessToken: this.issueAccess(grant), refreshToken: grant.refreshToken, expiresIn: this.accessTtlSeconds };
  }

  /** The account a request's Bearer token stands for, or null (unknown, expired or revoked): answer 401. */
  authenticate(request: IncomingMessage): string | null {
    const entry = this.access.get(bearerToken(request) ?? '');
    if (!entry || entry.grant.revoked || entry.expiresAt <= Date.now()) return null;
    return entry.grant.account;
  }

  /** Every access token issued so far stops working (a refresh gets a new one). */
  expireAccessTokens(): void {
    for (const entry of this.access.values()) entry.expiresAt = 0;
  }

  /** Every grant is revoked: access tokens stop working and refreshes answer invalid_grant. */
  revokeAll(): void {
    for (const grant of this.grants.values()) grant.revoked = true;
  }

  private issueAccess(grant: Grant): string {
    const accessToken = token('access');
    this.access.set(accessToken, { grant, expiresAt: Date.now() + this.accessTtlSeconds * 1000 });
    return accessToken;
  }

  private authorize(response: ServerResponse, url: URL): void {
    const redirectUri = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== this.clientId || !redirectUri || url.searchParams.get('response_type') !== 'code') {
      return sendJson(response, 400, { error: 'invalid_request', error_description: 'unknown client, or no redirect_uri or response_type=code' });
    }
    const target = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = token('code');
      const method = url.searchParams.get('code_challenge_method');
      this.codes.set(code, {
        account: this.account,
        redirectUri,
        clientId: this.clientId,
        challenge: method === 'S256' ? url.searchParams.get('code_challenge') : null,
      });
      target.searchParams.set('code', code);
    }
    response.writeHead(302, { location: target.toString() });
    response.end();
  }

  private clientAuthenticated(request: IncomingMessage): boolean {
    const match = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return false;
    const [id, secret] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
    return decodeURIComponent(id ?? '') === this.clientId && decodeURIComponent(secret ?? '') === this.clientSecret;
  }

  private async token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(request));
    if (!this.clientAuthenticated(request)) return sendJson(response, 401, { error: 'invalid_client' });
    const type = form.get('grant_type');
    if (type === 'authorization_code') {
      this.tokenCalls.authorization_code++;
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier');
      const challengeOk = !code?.challenge || (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === code.challenge);
      if (!code || code.redirectUri !== form.get('redirect_uri') || !challengeOk) return sendJson(response, 400, { error: 'invalid_grant' });
      const granted = this.grant(code.account);
      return sendJson(response, 200, {
        access_token: granted.accessToken,
        token_type: 'Bearer',
        expires_in: granted.expiresIn,
        refresh_token: granted.refreshToken,
        scope: 'fake',
      });
    }
    if (type === 'refresh_token') {
      this.tokenCalls.refresh_token++;
      const grant = this.grants.get(form.get('refresh_token') ?? '');
      if (!grant || grant.revoked) return sendJson(response, 400, { error: 'invalid_grant', error_description: 'the grant was revoked' });
      return sendJson(response, 200, { access_token: this.issueAccess(grant), token_type: 'Bearer', expires_in: this.accessTtlSeconds });
    }
    sendJson(response, 400, { error: 'unsupported_grant_type' });
  }
}

/** A ProviderConfig pointing every endpoint at a fake on `url` (API and content on one origin). */
export function fakeProviderConfig(oauth: FakeOAuth, url: string): ProviderConfig {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    apiUrl: url,
    contentUrl: url,
  };
}
