/**
 * Connecting a provider account: the authorization is started for a signed-in user and finished
 * by the provider's redirect back. The `state` sent along is `<nonce>.<signature>`: the signature
 * (HMAC under a key of its own) rejects forged states before the database is asked, and the
 * nonce names an oauth_states row, deleted as it is used (single use), that binds the
 * authorization to its user and provider, expires, and keeps the PKCE verifier server-side.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ProviderName } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import { openOrNull, seal } from '../auth/encryption.ts';
import { saveConnection } from './connections.ts';
import { ProviderError } from './errors.ts';
import { authorizeUrl, exchangeCode, GrantRefused, pkcePair } from './oauth.ts';
import { providerClient } from './registry.ts';
import type { ProviderAccount, TokenSet } from './types.ts';

/** How long a user has to consent at the provider. */
export const AUTHORIZATION_TTL_MS = 10 * 60_000;

/** The folder a file host mirrors unless the user picks another. */
export const DEFAULT_FOLDER = '/Music';

/** Why a callback was not accepted: the user's browser shows it. */
export class ConnectRefused extends Error {}

const redirectUri = (ctx: AppContext, provider: ProviderName) => `${ctx.config.publicUrl}/providers/${provider}/callback`;

function sign(ctx: AppContext, nonce: string, provider: ProviderName): string {
  return createHmac('sha256', ctx.keys.oauthState).update(`${provider}:${nonce}`).digest('base64url');
}

function signatureValid(ctx: AppContext, provider: ProviderName, state: string): string | null {
  const [nonce, signature, extra] = state.split('.');
  if (!nonce || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(ctx, nonce, provider));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : null;
}

const verifierContext = (nonce: string) => `oauth_states:${nonce}`;

/** A folder path to mirror: absolute, no empty, '.' or '..' segments; '/' is the whole drive. */
export function folderProblem(folder: string): string | null {
  if (!folder.startsWith('/')) return 'folder must be an absolute path such as /Music';
  const segments = folder.split('/').slice(1);
  if (folder !== '/' && segments.some((segment) => segment === '' || segment === '.' || segment === '..'))
    return 'folder must not have empty, . or .. segments';
  return null;
}

/** A cookie binding a flow a browser started to that browser: `name=value`, sent back to `path` (the flow's callback) only; max age 0 clears it. */
export function browserBindingCookie(ctx: AppContext, name: string, path: string, value: string, maxAgeSeconds: number): string {
  // Secure behind https (a browser would drop it over plain http, where it could be read in transit anyway).
  const secure = /^https:/i.test(ctx.config.publicUrl) ? '; Secure' : '';
  // Lax: the service's redirect back is a top-level GET navigation, which Lax cookies go along with.
  return `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The cookie binding a browser-started authorization to that browser; sent back to the callback only. */
export function bindingCookie(ctx: AppContext, provider: ProviderName, nonce: string, maxAgeSeconds = AUTHORIZATION_TTL_MS / 1000): string {
  return browserBindingCookie(ctx, bindingCookieName(provider), `/providers/${provider}/callback`, nonce, maxAgeSeconds);
}

export const bindingCookieName = (provider: ProviderName) => `earshot_connect_${provider}`;

/**
 * Who finishes an authorization, which is what ties the consent to the person who started it, so
 * a consent link handed to someone else connects nothing:
 * - `browser`: the caller's browser gets the binding cookie (bindingCookie) and follows the
 *   consent URL; only a callback carrying that cookie connects (GET connect, and the web app's
 *   POST: a same-origin fetch stores the cookie in the user's browser).
 * - `client`: the caller (the command line) opens the URL in whatever browser; the callback
 *   connects nothing, and the caller posts its address back with the account's own credentials
 *   (POST /providers/<name>/complete). A cookie cannot be relied on there, a Bearer token can.
 */
export type Finisher = 'browser' | 'client';

/** Starts an authorization: the provider URL to send the user's browser to. */
export async function beginConnect(
  ctx: AppContext,
  userId: string,
  provider: ProviderName,
  options: { folder?: string | undefined; finisher: Finisher },
): Promise<{ url: string; expiresAt: Date; nonce: string }> {
  const { folder } = options;
  const client = providerClient(ctx.config, provider);
  if (folder !== undefined && client.kind !== 'filehost') throw new ConnectRefused(`${provider} has no folders to choose; leave folder out`);
  const problem = folder === undefined ? null : folderProblem(folder);
  if (problem) throw new ConnectRefused(problem);
  const nonce = randomBytes(24).toString('base64url');
  const pkce = client.oauth.pkce ? pkcePair() : undefined;
  const expiresAt = new Date(Date.now() + AUTHORIZATION_TTL_MS);
  // Authorizations never finished are cleared here after a day (until then a late callback is told it expired).
  await ctx.db
    .deleteFrom('oauth_states')
    .where('expires_at', '<', new Date(Date.now() - 86_400_000))
    .execute();
  await ctx.db
    .insertInto('oauth_states')
    .values({
      nonce,
      user_id: userId,
      provider,
      code_verifier_sealed: pkce ? seal(ctx.keys.encryption, pkce.verifier, verifierContext(nonce)) : null,
      folder: client.kind === 'filehost' ? (folder ?? DEFAULT_FOLDER) : null,
      expires_at: expiresAt,
      browser_bound: options.finisher === 'browser',
    })
    .execute();
  const state = `${nonce}.${sign(ctx, nonce, provider)}`;
  const url = authorizeUrl(ctx.config.providers[provider]!, client.oauth, { state, redirectUri: redirectUri(ctx, provider), codeChallenge: pkce?.challenge });
  return { url, expiresAt, nonce };
}

export interface Connected {
  userId: string;
  provider: ProviderName;
  account: ProviderAccount;
  /** The folder a file host mirrors. */
  folder: string | null;
}

/** How a finisher proves it is the one that started the authorization (see Finisher). */
type BrowserProof = { finisher: 'browser'; cookie: string | undefined };
type ClientProof = { finisher: 'client'; userId: string };
export type Callback = { state?: string | undefined; code?: string | undefined; error?: string | undefined };

/**
 * Finishes an authorization from the provider's redirect: the state is checked and used up, the
 * code exchanged, the account named, and the grant stored as the user's connection. A browser's
 * callback for an authorization its client finishes is 'awaiting-client', using nothing up.
 */
export function completeConnect(ctx: AppContext, provider: ProviderName, callback: Callback, proof: BrowserProof): Promise<Connected | 'awaiting-client'>;
export function completeConnect(ctx: AppContext, provider: ProviderName, callback: Callback, proof: ClientProof): Promise<Connected>;
export async function completeConnect(
  ctx: AppContext,
  provider: ProviderName,
  callback: Callback,
  proof: BrowserProof | ClientProof,
): Promise<Connected | 'awaiting-client'> {
  const client = providerClient(ctx.config, provider);
  const nonce = callback.state ? signatureValid(ctx, provider, callback.state) : null;
  if (!nonce) throw new ConnectRefused(`the authorization state is missing or was not issued by this server; start again at /providers/${provider}/connect`);
  let taking = ctx.db
    .deleteFrom('oauth_states')
    .where('nonce', '=', nonce)
    .where('provider', '=', provider)
    .where('browser_bound', '=', proof.finisher === 'browser');
  // Only its own account can use up an authorization a client finishes.
  if (proof.finisher === 'client') taking = taking.where('user_id', '=', proof.userId);
  const pending = await taking.returningAll().executeTakeFirst();
  if (!pending) {
    const waiting = await ctx.db
      .selectFrom('oauth_states')
      .select('browser_bound')
      .where('nonce', '=', nonce)
      .where('provider', '=', provider)
      .executeTakeFirst();
    if (waiting?.browser_bound === false && proof.finisher === 'browser') return 'awaiting-client';
    if (waiting?.browser_bound === true && proof.finisher === 'client') {
      throw new ConnectRefused('this authorization was started in a browser: it is finished there, by the provider sending that browser back');
    }
    throw new ConnectRefused('this authorization was already used or has been replaced; start again');
  }
  if (proof.finisher === 'browser' && proof.cookie !== nonce) {
    const start = `${ctx.config.publicUrl}/providers/${provider}/connect`;
    throw new ConnectRefused(
      `this authorization was started in another browser, or at another address than ${ctx.config.publicUrl}; start again at ${start} in this browser`,
    );
  }
  if (pending.expires_at.getTime() < Date.now()) throw new ConnectRefused('this authorization expired; start again');
  if (callback.error) throw new ConnectRefused(`${provider} did not grant access (${callback.error})`);
  if (!callback.code) throw new ConnectRefused(`${provider} sent no authorization code`);
  const verifier =
    pending.code_verifier_sealed === null ? undefined : (openOrNull(ctx.keys.encryption, pending.code_verifier_sealed, verifierContext(nonce)) ?? undefined);
  let tokens: TokenSet;
  try {
    tokens = await exchangeCode(provider, ctx.config.providers[provider]!, {
      code: callback.code,
      redirectUri: redirectUri(ctx, provider),
      codeVerifier: verifier,
    });
  } catch (error) {
    if (error instanceof GrantRefused) throw new ConnectRefused(`${provider} refused the authorization code; start again`);
    throw error;
  }
  const account = await client.account(tokens.accessToken).catch((error: unknown) => {
    throw error instanceof ProviderError ? error : new ProviderError('Unavailable', provider, `${provider} did not say whose account this is`);
  });
  await saveConnection(ctx, pending.user_id, provider, tokens, account);
  return { userId: pending.user_id, provider, account, folder: pending.folder };
}
