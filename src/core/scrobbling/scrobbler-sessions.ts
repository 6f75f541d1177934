import { sql } from 'kysely';
import { notFound } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';

/**
 * A Last.fm or Audioscrobbler session a user granted, possibly to an application whose API key
 * belongs to someone else (Last.fm's desktop flow): the user must be able to see and end it.
 */
export interface ScrobblerSession {
  id: string;
  kind: 'lastfm' | 'audioscrobbler';
  /** The API key's name, as shown on the approval page. */
  application: string;
  /** The handle of the API key's owner. */
  applicationOwner: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Audioscrobbler sessions last a day; Last.fm sessions never expire. */
  expiresAt: Date | null;
}

/** The caller's live sessions of both kinds, newest first; never a key or digest. */
export async function listScrobblerSessions(db: Database, userId: string): Promise<ScrobblerSession[]> {
  const lastfm = db
    .selectFrom('lastfm_sessions as session')
    .innerJoin('api_keys as key', 'key.id', 'session.api_key_id')
    .innerJoin('users as owner', 'owner.id', 'key.user_id')
    .select([
      'session.id',
      sql<ScrobblerSession['kind']>`'lastfm'`.as('kind'),
      'key.name as application',
      'owner.handle as applicationOwner',
      'session.created_at as createdAt',
      'session.last_used_at as lastUsedAt',
      sql<Date | null>`null::timestamptz`.as('expiresAt'),
    ])
    .where('session.user_id', '=', userId);
  const audioscrobbler = db
    .selectFrom('audioscrobbler_sessions as session')
    .innerJoin('api_keys as key', 'key.id', 'session.api_key_id')
    .innerJoin('users as owner', 'owner.id', 'key.user_id')
    .select([
      'session.id',
      sql<ScrobblerSession['kind']>`'audioscrobbler'`.as('kind'),
      'key.name as application',
      'owner.handle as applicationOwner',
      'session.created_at as createdAt',
      sql<Date | null>`null::timestamptz`.as('lastUsedAt'),
      'session.expires_at as expiresAt',
    ])
    .where('session.user_id', '=', userId)
    .where('session.expires_at', '>', sql<Date>`now()`);
  return lastfm.unionAll(audioscrobbler).orderBy('createdAt', 'desc').orderBy('id').execute();
}

/** Ends one of the caller's sessions at once; 404 for an unknown id or someone else's session. */
export async function revokeScrobblerSession(db: Database, userId: string, id: string): Promise<void> {
  // Ids are UUIDs, unique across both tables, so at most one of these deletes a row.
  const lastfm = await db.deleteFrom('lastfm_sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  const audioscrobbler = await db.deleteFrom('audioscrobbler_sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (lastfm.numDeletedRows + audioscrobbler.numDeletedRows === 0n) throw notFound(`no scrobbler session with id ${id}`);
}
