import type { Database } from '../../toolkit/db/index.ts';
import { sha256Hex } from '../../core/auth/hashing.ts';
import { recordCredentialUse } from '../../core/auth/usage.ts';
import { newRandomKey } from './credentials.ts';

/** Who a Last.fm session key speaks for, and through which API key. */
export interface LastfmSession {
  userId: string;
  handle: string;
  apiKeyId: string;
}

type Executor = Pick<Database, 'insertInto' | 'selectFrom'>;

/** A new session key; only its digest is kept, and it lasts until its API key is removed. */
export async function createLastfmSession(db: Executor, userId: string, apiKeyId: string): Promise<string> {
  const key = newRandomKey();
  await db
    .insertInto('lastfm_sessions')
    .values({ user_id: userId, api_key_id: apiKeyId, key_hash: sha256Hex(key) })
    .execute();
  return key;
}

/** The session a key names, if it was created through the same API key; records the use. */
export async function findLastfmSession(db: Database, sessionKey: string, apiKeyId: string): Promise<LastfmSession | null> {
  const row = await db
    .selectFrom('lastfm_sessions')
    .innerJoin('users', 'users.id', 'lastfm_sessions.user_id')
    .select(['lastfm_sessions.id as sessionId', 'users.id as userId', 'users.handle', 'lastfm_sessions.api_key_id as apiKeyId'])
    .where('lastfm_sessions.key_hash', '=', sha256Hex(sessionKey))
    .where('lastfm_sessions.api_key_id', '=', apiKeyId)
    .executeTakeFirst();
  if (!row) return null;
  const { sessionId, ...session } = row;
  await recordCredentialUse(db, 'lastfm_sessions', sessionId);
  return session;
}
