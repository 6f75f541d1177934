/**
 * A user's connected provider accounts: the OAuth grant, sealed with AES-256-GCM under the
 * server's encryption key (a fresh nonce per value, bound to the row and purpose, so a sealed
 * token copied to another row or column does not open), and the one place access tokens are
 * handed out, refreshed, and found refused. Tokens never leave this module except to the
 * provider's client for one call.
 */
import type { Selectable } from 'kysely';
import type { ProviderName } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import { openOrNull, seal } from '../auth/encryption.ts';
import { inTransaction, type Database, type ProviderAccountsTable } from '../../toolkit/db/index.ts';
import { ProviderError } from './errors.ts';
import { AccessTokenRefused } from './http.ts';
import { GrantRefused, refreshGrant } from './oauth.ts';
import { providerConfig } from './registry.ts';
import type { ProviderAccount, TokenSet } from './types.ts';

type AccountRow = Selectable<ProviderAccountsTable>;

/** A token this close to expiry is refreshed first: it could expire on the way to the provider. */
const EXPIRY_MARGIN_MS = 60_000;

const tokenContext = (userId: string, provider: ProviderName, which: 'access' | 'refresh') => `provider_accounts:${userId}:${provider}:${which}`;

function sealToken(ctx: AppContext, userId: string, provider: ProviderName, which: 'access' | 'refresh', token: string): string {
  return seal(ctx.keys.encryption, token, tokenContext(userId, provider, which));
}

function openToken(ctx: AppContext, row: AccountRow, which: 'access' | 'refresh'): string | null {
  const sealed = which === 'access' ? row.access_token_encrypted : row.refresh_token_encrypted;
  return sealed === null ? null : openOrNull(ctx.keys.encryption, sealed, tokenContext(row.user_id, row.provider as ProviderName, which));
}

export const reconnectHint = (provider: ProviderName) => `reconnect at /providers/${provider}/connect`;

/**
 * Stores a grant as the user's connection, replacing any previous one. A grant for another
 * account than before starts afresh: the streaming position and the file host's mirror belonged
 * to the old account.
 */
export async function saveConnection(ctx: AppContext, userId: string, provider: ProviderName, tokens: TokenSet, account: ProviderAccount): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const previous = await tx
      .selectFrom('provider_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .forUpdate()
      .executeTakeFirst();
    const sameAccount = previous?.account_id === account.id;
    if (previous && !sameAccount && provider !== 'musicstream') {
      await tx.deleteFrom('library_sources').where('user_id', '=', userId).where('kind', '=', provider).execute();
    }
    // Some providers send a refresh token only on the first consent; a reconnect of the same account keeps it.
    const refresh =
      tokens.refreshToken !== undefined
        ? sealToken(ctx, userId, provider, 'refresh', tokens.refreshToken)
        : sameAccount
          ? previous!.refresh_token_encrypted
          : null;
    const values = {
      account_id: account.id,
      account_name: account.name,
      scope: tokens.scope ?? null,
      access_token_encrypted: sealToken(ctx, userId, provider, 'access', tokens.accessToken),
      refresh_token_encrypted: refresh,
      expires_at: tokens.expiresAt ?? null,
      status: 'connected' as const,
      status_reason: null,
      updated_at: new Date(),
      ...(sameAccount ? {} : { poll_cursor: null, poll_observed: '[]', last_polled_at: null, last_poll_error: null }),
    };
    await tx
      .insertInto('provider_accounts')
      .values({ user_id: userId, provider, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'provider']).doUpdateSet(values))
      .execute();
  });
}

/** The user's connection to the provider, broken or not; ProviderError 'NotConnected' when there is none. */
export async function existingConnection(db: Database, userId: string, provider: ProviderName): Promise<AccountRow> {
  const row = await readConnection(db, userId, provider);
  if (!row) throw new ProviderError('NotConnected', provider, `no ${provider} account is connected; connect one at /providers/${provider}/connect`);
  return row;
}

async function loadConnection(db: Database, userId: string, provider: ProviderName): Promise<AccountRow> {
  const row = await existingConnection(db, userId, provider);
  if (row.status === 'broken')
    throw new ProviderError(
      'ConnectionBroken',
      provider,
      `the ${provider} connection is broken (${row.status_reason ?? 'refused by the provider'}); ${reconnectHint(provider)}`,
    );
  return row;
}

/** Marks the connection broken, visible in getConnections, and answers the error to throw. */
export async function markBroken(db: Database, userId: string, provider: ProviderName, reason: string): Promise<ProviderError> {
  await db
    .updateTable('provider_accounts')
    .set({ status: 'broken', status_reason: reason, updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .execute();
  return new ProviderError('ConnectionBroken', provider, `the ${provider} connection is broken (${reason}); ${reconnectHint(provider)}`);
}

const fresh = (row: AccountRow) => row.expires_at === null || row.expires_at.getTime() > Date.now() + EXPIRY_MARGIN_MS;

async function readConnection(db: Database, userId: string, provider: ProviderName): Promise<AccountRow | undefined> {
  return db.selectFrom('provider_accounts').selectAll().where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
}

/** Refreshes in flight in this process, so concurrent calls for one connection refresh it once. */
const refreshing = new Map<string, Promise<string>>();

/**
 * A new access token for the connection (`stale` is the one that expired or was refused). No
 * transaction is held while the provider is asked (on the embedded database that would stall
 * every other request); instead the new token is written only over the row it was refreshed
 * from, and a refusal is taken as revocation only if no other process refreshed meanwhile (a
 * provider that rotates refresh tokens refuses the older one).
 */
function refreshAccess(ctx: AppContext, userId: string, provider: ProviderName, stale: string | null): Promise<string> {
  const key = `${userId}:${provider}`;
  let pending = refreshing.get(key);
  if (!pending) {
    pending = refreshOnce(ctx, userId, provider, stale).finally(() => refreshing.delete(key));
    refreshing.set(key, pending);
  }
  return pending;
}

async function refreshOnce(ctx: AppContext, userId: string, provider: ProviderName, stale: string | null): Promise<string> {
  const config = providerConfig(ctx.config, provider);
  // Disconnected or broken meanwhile: that error, not a refresh.
  const row = await loadConnection(ctx.db, userId, provider);
  const current = openToken(ctx, row, 'access');
  if (current !== null && current !== stale && fresh(row)) return current;
  const refreshToken = openToken(ctx, row, 'refresh');
  if (refreshToken === null) throw await markBroken(ctx.db, userId, provider, 'the provider gave no refresh token, or it can no longer be read');
  let tokens: TokenSet;
  try {
    tokens = await refreshGrant(provider, config, refreshToken);
  } catch (error) {
    if (!(error instanceof GrantRefused)) throw error;
    const now = await readConnection(ctx.db, userId, provider);
    if (now && now.status === 'connected' && now.access_token_encrypted !== row.access_token_encrypted && fresh(now))
      return openToken(ctx, now, 'access') ?? '';
    throw await markBroken(ctx.db, userId, provider, 'the provider refused to refresh the grant: it was revoked or has expired');
  }
  await ctx.db
    .updateTable('provider_accounts')
    .set({
      access_token_encrypted: sealToken(ctx, userId, provider, 'access', tokens.accessToken),
      ...(tokens.refreshToken ? { refresh_token_encrypted: sealToken(ctx, userId, provider, 'refresh', tokens.refreshToken) } : {}),
      expires_at: tokens.expiresAt ?? null,
      updated_at: new Date(),
    })
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .where('access_token_encrypted', row.access_token_encrypted === null ? 'is' : '=', row.access_token_encrypted)
    .execute();
  return tokens.accessToken;
}

/**
 * Runs `call` with the user's access token for the provider: reused until it expires, refreshed
 * first when it has, and refreshed once more when the provider refuses it (401); refused again,
 * the connection is marked broken. NotConfigured, NotConnected and ConnectionBroken come first.
 */
export async function withAccessToken<T>(ctx: AppContext, userId: string, provider: ProviderName, call: (accessToken: string) => Promise<T>): Promise<T> {
  providerConfig(ctx.config, provider);
  const row = await loadConnection(ctx.db, userId, provider);
  const stored = openToken(ctx, row, 'access');
  let token = stored !== null && fresh(row) ? stored : await refreshAccess(ctx, userId, provider, stored);
  try {
    return await call(token);
  } catch (error) {
    if (!(error instanceof AccessTokenRefused)) throw error;
  }
  token = await refreshAccess(ctx, userId, provider, token);
  try {
    return await call(token);
  } catch (error) {
    if (error instanceof AccessTokenRefused) throw await markBroken(ctx.db, userId, provider, 'the provider refused a freshly refreshed token');
    throw error;
  }
}

/**
 * Ends the connection: the grant is forgotten and the file host's mirror leaves the library
 * (its songs stay in the catalog with their plays). Answers whether there was one.
 */
export async function disconnect(db: Database, userId: string, provider: ProviderName): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await tx.deleteFrom('oauth_states').where('user_id', '=', userId).where('provider', '=', provider).execute();
    if (provider !== 'musicstream') await tx.deleteFrom('library_sources').where('user_id', '=', userId).where('kind', '=', provider).execute();
    const deleted = await tx.deleteFrom('provider_accounts').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  });
}

/** Ends the user's connection to the provider as a caller asks: NotConnected when there is none. */
export async function disconnectOrRefuse(db: Database, userId: string, provider: ProviderName): Promise<void> {
  if (!(await disconnect(db, userId, provider))) throw new ProviderError('NotConnected', provider, `no ${provider} account is connected`);
}
