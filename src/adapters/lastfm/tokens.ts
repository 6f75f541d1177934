import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { sha256Hex } from '../../core/auth/hashing.ts';
import { newRandomKey } from './credentials.ts';
import { createLastfmSession } from './sessions.ts';

/** Last.fm's desktop-auth tokens are valid for 60 minutes. */
const TOKEN_LIFETIME = '60 minutes';
/** Expired tokens are kept a while so late clients hear "expired" rather than "invalid". */
const EXPIRED_TOKEN_RETENTION = '1 day';

export async function issueToken(db: Database, apiKeyId: string): Promise<string> {
  const token = newRandomKey();
  await db
    .deleteFrom('lastfm_tokens')
    .where('api_key_id', '=', apiKeyId)
    .where('expires_at', '<', sql<Date>`now() - ${EXPIRED_TOKEN_RETENTION}::interval`)
    .execute();
  await db
    .insertInto('lastfm_tokens')
    .values({ token_hash: sha256Hex(token), api_key_id: apiKeyId, expires_at: sql<Date>`now() + ${TOKEN_LIFETIME}::interval` })
    .execute();
  return token;
}

export type TokenState = 'unknown' | 'expired' | 'pending' | 'approved';

export async function tokenState(db: Pick<Database, 'selectFrom'>, token: string, apiKeyId: string): Promise<TokenState> {
  const row = await db
    .selectFrom('lastfm_tokens')
    .select(['user_id', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('token_hash', '=', sha256Hex(token))
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirst();
  if (!row) return 'unknown';
  if (row.expired) return 'expired';
  return row.user_id ? 'approved' : 'pending';
}

/** Marks a pending token as approved by the user; false when it is not pending any more. */
export async function approveToken(db: Database, token: string, apiKeyId: string, userId: string): Promise<boolean> {
  const result = await db
    .updateTable('lastfm_tokens')
    .set({ user_id: userId })
    .where('token_hash', '=', sha256Hex(token))
    .where('api_key_id', '=', apiKeyId)
    .where('user_id', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export type TokenExchange = { state: Exclude<TokenState, 'approved'> } | { state: 'approved'; sessionKey: string; handle: string };

/** Trades an approved token for a session key, once: the token is consumed. */
export async function exchangeToken(db: Database, token: string, apiKeyId: string): Promise<TokenExchange> {
  return db.transaction().execute(async (tx) => {
    const consumed = await tx
      .deleteFrom('lastfm_tokens')
      .where('token_hash', '=', sha256Hex(token))
      .where('api_key_id', '=', apiKeyId)
      .where('user_id', 'is not', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    if (!consumed?.user_id) {
      // Approved but not deleted here means another request consumed it in the meantime.
      const state = await tokenState(tx, token, apiKeyId);
      return { state: state === 'approved' ? 'unknown' : state };
    }
    const user = await tx.selectFrom('users').select('handle').where('id', '=', consumed.user_id).executeTakeFirstOrThrow();
    return { state: 'approved', sessionKey: await createLastfmSession(tx, consumed.user_id, apiKeyId), handle: user.handle };
  });
}
