import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { sha256Hex } from '../../core/auth/hashing.ts';
import { newRandomKey } from '../lastfm/index.ts';

/** Clients handshake again when told BADSESSION, so sessions need not outlive a day. */
const SESSION_LIFETIME = '24 hours';

export async function createAudioscrobblerSession(db: Database, userId: string, apiKeyId: string): Promise<string> {
  const sessionId = newRandomKey();
  await db.deleteFrom('audioscrobbler_sessions').where('user_id', '=', userId).where('expires_at', '<=', sql<Date>`now()`).execute();
  await db
    .insertInto('audioscrobbler_sessions')
    .values({ session_hash: sha256Hex(sessionId), user_id: userId, api_key_id: apiKeyId, expires_at: sql<Date>`now() + ${SESSION_LIFETIME}::interval` })
    .execute();
  return sessionId;
}

/** The user a live session id belongs to. */
export async function sessionUser(db: Database, sessionId: string): Promise<string | null> {
  const row = await db
    .selectFrom('audioscrobbler_sessions')
    .select('user_id')
    .where('session_hash', '=', sha256Hex(sessionId))
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.user_id ?? null;
}
