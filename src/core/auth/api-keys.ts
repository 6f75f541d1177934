import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { compiledOnce, inTransaction, type Database } from '../../toolkit/db/index.ts';
import { notFound } from '../../toolkit/errors.ts';
import { sealAudioscrobblerDigest } from './audioscrobbler-digest.ts';
import { ensureRoomForCredential } from './credential-cap.ts';
import { sha256Hex } from './hashing.ts';
import { sealSubsonicKey } from './subsonic-key.ts';
import type { ServerKeys } from '../context.ts';
import { recordCredentialUse, useStampDue } from './usage.ts';
import type { Viewer } from './viewer.ts';

export interface ApiKey {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Shown once, at creation. */
export interface ApiKeyCredentials {
  /** The credential for `Authorization: Token <key>` and Last.fm's api_key. */
  key: string;
  /** Last.fm-style shared secret for api_sig; derived, so it is never stored. */
  sharedSecret: string;
}

/** 32 lowercase hex characters: the shape Last.fm clients expect of an API key. */
export const API_KEY_PATTERN = /^[0-9a-f]{32}$/;

const API_KEY_COLUMNS = ['id', 'name', 'description', 'created_at', 'last_used_at'] as const;

function toApiKey(row: { id: string; name: string; description: string; created_at: Date; last_used_at: Date | null }): ApiKey {
  return { id: row.id, name: row.name, description: row.description, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

export function sharedSecretFor(secretKey: Uint8Array, apiKeyId: string): string {
  return createHmac('sha256', secretKey).update(apiKeyId).digest('hex').slice(0, 32);
}

export async function createApiKey(
  db: Database,
  keys: Pick<ServerKeys, 'apiKeySharedSecret' | 'encryption'>,
  creator: Pick<Viewer, 'userId' | 'accessTokenId'>,
  fields: { name: string; description: string },
): Promise<ApiKey & ApiKeyCredentials> {
  const key = randomBytes(16).toString('hex');
  // Chosen here rather than by the database: the sealed digest is bound to it.
  const id = randomUUID();
  const row = await inTransaction(db, async (tx) => {
    await ensureRoomForCredential(tx, 'api_keys', creator.userId, 'API keys');
    return tx
      .insertInto('api_keys')
      .values({
        id,
        user_id: creator.userId,
        created_by_token_id: creator.accessTokenId ?? null,
        name: fields.name,
        description: fields.description,
        key_hash: sha256Hex(key),
        audioscrobbler_digest: sealAudioscrobblerDigest(keys.encryption, id, key),
        subsonic_key: sealSubsonicKey(keys.encryption, id, key),
      })
      .returning(API_KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  });
  return { ...toApiKey(row), key, sharedSecret: sharedSecretFor(keys.apiKeySharedSecret, row.id) };
}

export async function listApiKeys(db: Database, userId: string): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').select(API_KEY_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map(toApiKey);
}

export async function updateApiKey(
  db: Database,
  userId: string,
  id: string,
  changes: { name?: string | undefined; description?: string | undefined },
): Promise<ApiKey> {
  const row = await db
    .updateTable('api_keys')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.description !== undefined && { description: changes.description }),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(API_KEY_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound(`no API key with id ${id}`);
  return toApiKey(row);
}

export async function removeApiKey(db: Database, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('api_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound(`no API key with id ${id}`);
}

export interface ApiKeyOwner extends Viewer {
  apiKeyId: string;
}

/** Every request with an API key reads this: compiled once, not per request. */
const ownerOfKeyHash = compiledOnce((db: Database, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id as apiKeyId', 'users.id as userId', 'users.did', 'users.handle', 'api_keys.last_used_at'])
    .where('api_keys.key_hash', '=', keyHash),
);

/** The user an API key belongs to, or null for an unknown key; records the use. */
export async function authenticateApiKey(db: Database, key: string): Promise<ApiKeyOwner | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const [row] = await ownerOfKeyHash(db, sha256Hex(key));
  if (!row) return null;
  const { last_used_at, ...owner } = row;
  if (useStampDue(last_used_at)) await recordCredentialUse(db, 'api_keys', owner.apiKeyId);
  return { ...owner, credential: 'api-key' };
}
