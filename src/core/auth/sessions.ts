import type { Database } from '../../toolkit/db/index.ts';
import { invalidToken, notFound } from '../../toolkit/errors.ts';
import { SESSION_LIFETIME_SECONDS, signSessionToken } from './tokens.ts';
import { recordCredentialUse, useStampDue } from './usage.ts';

/** Longest User-Agent kept: enough to tell clients apart, bounded so a client cannot bloat the row. */
const USER_AGENT_MAX_LENGTH = 200;

export interface SignInSession {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
}

/** Stores a new sign-in session (clearing the user's expired ones) and signs its token. */
export async function startSession(
  db: Database,
  jwtKey: Uint8Array,
  user: { id: string; did: string },
  userAgent: string | undefined,
): Promise<{ token: string; expiresAt: Date }> {
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + SESSION_LIFETIME_SECONDS) * 1000);
  await db.deleteFrom('sign_in_sessions').where('user_id', '=', user.id).where('expires_at', '<=', new Date()).execute();
  const row = await db
    .insertInto('sign_in_sessions')
    .values({ user_id: user.id, user_agent: userAgent?.slice(0, USER_AGENT_MAX_LENGTH) || null, expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token: await signSessionToken(jwtKey, user.did, row.id, expiresAt), expiresAt };
}

/** The user of a live session named by a sign-in token (one primary-key lookup); 401 once it has ended. */
export async function sessionUser(db: Database, sessionId: string, did: string): Promise<{ id: string; did: string; handle: string }> {
  const row = await db
    .selectFrom('sign_in_sessions')
    .innerJoin('users', 'users.id', 'sign_in_sessions.user_id')
    .select(['users.id', 'users.did', 'users.handle', 'sign_in_sessions.last_used_at'])
    .where('sign_in_sessions.id', '=', sessionId)
    .where('sign_in_sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row || row.did !== did) throw invalidToken('This sign-in session has ended (signed out, password changed or account deleted); sign in again');
  if (useStampDue(row.last_used_at)) await recordCredentialUse(db, 'sign_in_sessions', sessionId);
  return { id: row.id, did: row.did, handle: row.handle };
}

/** The user's sessions that have not expired, newest first. */
export async function listSessions(db: Database, userId: string): Promise<SignInSession[]> {
  const rows = await db
    .selectFrom('sign_in_sessions')
    .select(['id', 'user_agent', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
  }));
}

/** Ends one of the user's sessions; 404 for an unknown id or another user's. */
export async function endSession(db: Database, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('sign_in_sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound(`no sign-in session with id ${id}`);
}

/** Ends every session of the user except `keep` (the caller's own, when it is one). */
export async function endOtherSessions(db: Database, userId: string, keep: string | undefined): Promise<void> {
  let sessions = db.deleteFrom('sign_in_sessions').where('user_id', '=', userId);
  if (keep !== undefined) sessions = sessions.where('id', '!=', keep);
  await sessions.execute();
}
