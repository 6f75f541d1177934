import { sql } from 'kysely';
import { inTransaction, type Database } from '../../toolkit/db/index.ts';
import { conflict, invalidRequest } from '../../toolkit/errors.ts';
import { generateDid, isHandle, normalizeHandle, parseActor, type Actor } from './identifiers.ts';
import { hashPassword, needsRehash, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from './passwords.ts';
import { endOtherSessions } from './sessions.ts';

export interface User {
  id: string;
  did: string;
  handle: string;
  displayName: string | null;
  avatar: string | null;
  timezone: string;
  admin: boolean;
  createdAt: Date;
}

export interface NewUser {
  handle: string;
  password: string;
  displayName?: string | undefined;
}

const USER_COLUMNS = ['id', 'did', 'handle', 'display_name', 'avatar', 'timezone', 'admin', 'created_at'] as const;

type UserRow = {
  id: string;
  did: string;
  handle: string;
  display_name: string | null;
  avatar: string | null;
  timezone: string;
  admin: boolean;
  created_at: Date;
};

function toUser(row: UserRow): User {
  return {
    id: row.id,
    did: row.did,
    handle: row.handle,
    displayName: row.display_name,
    avatar: row.avatar,
    timezone: row.timezone,
    admin: row.admin,
    createdAt: row.created_at,
  };
}

export function validatePassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw invalidRequest(`password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw invalidRequest(`password must be at most ${PASSWORD_MAX_LENGTH} characters`);
  }
}

export async function createUser(db: Database, input: NewUser): Promise<User> {
  const handle = normalizeHandle(input.handle);
  if (!isHandle(handle)) {
    throw invalidRequest('handle must be letters, digits and hyphens, optionally dot-separated like a domain (e.g. alice or alice.example.com)');
  }
  validatePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const row = await inTransaction(db, async (tx) => {
    // Two first signups at once must not both see an empty table: the lock makes them take turns,
    // and each insert's own snapshot (taken after the lock) sees any user committed before it.
    await sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK}::bigint)`.execute(tx);
    return tx
      .insertInto('users')
      .values((eb) => ({
        did: generateDid(),
        handle,
        display_name: input.displayName ?? null,
        password_hash: passwordHash,
        admin: eb.not(eb.exists(eb.selectFrom('users').select('id'))).$castTo<boolean>(),
      }))
      .onConflict((oc) => oc.column('handle').doNothing())
      .returning(USER_COLUMNS)
      .executeTakeFirst();
  });
  if (!row) throw conflict('HandleTaken', `handle "${handle}" is already taken`);
  return toUser(row);
}

/** The advisory lock signups take so exactly one first account becomes admin (an arbitrary constant). */
const FIRST_ADMIN_LOCK = 0x6561_7273_6874;

/** Makes the user an admin (or not); false when no user has that handle. */
export async function setAdmin(db: Database, handle: string, admin: boolean): Promise<boolean> {
  const result = await db.updateTable('users').set({ admin, updated_at: new Date() }).where('handle', '=', normalizeHandle(handle)).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the user may edit the shared catalog. */
export async function isAdmin(db: Database, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('admin').where('id', '=', userId).executeTakeFirst();
  return row?.admin ?? false;
}

function usersNamed(db: Database, actor: Actor) {
  const users = db.selectFrom('users');
  return actor.kind === 'did' ? users.where('did', '=', actor.did) : users.where('handle', '=', actor.handle);
}

/** Finds a user by DID or handle; null for unknown or malformed actors. */
export async function findUserByActor(db: Database, actor: string): Promise<User | null> {
  const parsed = parseActor(actor);
  if (!parsed) return null;
  const row = await usersNamed(db, parsed).select(USER_COLUMNS).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Spent on unknown users too, so response time does not reveal which handles exist; made on first use, not at start. */
let dummyPasswordHash: Promise<string> | undefined;

/** The user whose handle or DID and password match, else null. A match hashed at an old cost is rehashed at today's. */
export async function verifyLogin(db: Database, identifier: string, password: string): Promise<User | null> {
  const parsed = parseActor(identifier);
  const row = parsed
    ? await usersNamed(db, parsed)
        .select([...USER_COLUMNS, 'password_hash'])
        .executeTakeFirst()
    : undefined;
  // biome-ignore lint/suspicious/noAssignInExpressions: the dummy hash is made once, on the first sign-in for an unknown name
  const matches = await verifyPassword(password, row?.password_hash ?? (await (dummyPasswordHash ??= hashPassword('dummy password for timing'))));
  if (!row?.password_hash || !matches) return null;
  if (needsRehash(row.password_hash)) await rehashPassword(db, row.id, row.password_hash, password);
  return toUser(row);
}

/** Replaces the hash only if it is still the one verified, so a password changed meanwhile is kept. */
async function rehashPassword(db: Database, userId: string, verifiedHash: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).where('password_hash', '=', verifiedHash).execute();
}

/** Whether `password` is the user's password. */
export async function passwordMatches(db: Database, userId: string, password: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.password_hash) && (await verifyPassword(password, row!.password_hash!));
}

/** Sets a new password (same rules as sign-up) and ends every sign-in session but `keepSession`, in one transaction. */
export async function changePassword(db: Database, userId: string, newPassword: string, keepSession: string | undefined): Promise<void> {
  validatePassword(newPassword);
  const passwordHash = await hashPassword(newPassword);
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute();
    await endOtherSessions(tx, userId, keepSession);
  });
}

export interface ProfileChange {
  displayName?: string | null | undefined;
  avatar?: string | null | undefined;
  timezone?: string | undefined;
}

/** Writes the fields given (undefined ones stay as they are) and answers the user as it now is. */
export async function updateUser(db: Database, userId: string, change: ProfileChange): Promise<User> {
  const row = await db
    .updateTable('users')
    .set({ display_name: change.displayName, avatar: change.avatar, timezone: change.timezone, updated_at: new Date() })
    .where('id', '=', userId)
    .returning(USER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

/**
 * Deletes the user and, through the foreign keys' ON DELETE CASCADE, everything of theirs: plays,
 * likes, follows both ways, API keys and their Last.fm/Audioscrobbler sessions, access tokens,
 * sign-in sessions, provider connections and their file host sources, playlists, queue, imports.
 * Catalog entries (songs, albums, artists) are shared and stay. The statistics' queue has no
 * foreign key (deleting the plays queues their removal after the user row is gone), so it is
 * emptied of the user's rows here, with their count in stats_queue_users, in the same transaction.
 */
export async function deleteUser(db: Database, userId: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('users').where('id', '=', userId).execute();
    await tx.deleteFrom('stats_queue').where('user_id', '=', userId).execute();
    await tx.deleteFrom('stats_queue_users').where('user_id', '=', userId).execute();
  });
}
