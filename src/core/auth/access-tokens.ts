import type { Database } from '../../toolkit/db/index.ts';
import { notFound } from '../../toolkit/errors.ts';
import { ensureRoomForCredential } from './credential-cap.ts';
import { sha256Hex } from './hashing.ts';
import { signAccessToken } from './tokens.ts';
import { recordCredentialUse } from './usage.ts';
import type { Viewer } from './viewer.ts';

export interface AccessTokenSummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastFour: string;
}

export async function createAccessToken(
  db: Database,
  jwtKey: Uint8Array,
  creator: Pick<Viewer, 'userId' | 'did' | 'accessTokenId'>,
  name: string,
): Promise<AccessTokenSummary & { token: string }> {
  return db.transaction().execute(async (tx) => {
    await ensureRoomForCredential(tx, 'access_tokens', creator.userId, 'personal access tokens');
    const row = await tx
      .insertInto('access_tokens')
      .values({ user_id: creator.userId, name, token_hash: '', last_four: '', created_by_token_id: creator.accessTokenId ?? null })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    const token = await signAccessToken(jwtKey, creator.did, row.id);
    const lastFour = token.slice(-4);
    await tx
      .updateTable('access_tokens')
      .set({ token_hash: sha256Hex(token), last_four: lastFour })
      .where('id', '=', row.id)
      .execute();
    return { id: row.id, name, createdAt: row.created_at, lastUsedAt: null, lastFour, token };
  });
}

export async function listAccessTokens(db: Database, userId: string): Promise<AccessTokenSummary[]> {
  const rows = await db
    .selectFrom('access_tokens')
    .select(['id', 'name', 'created_at', 'last_used_at', 'last_four'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    lastFour: row.last_four,
  }));
}

/** Revokes the token and, by cascade, every access token and API key created with it. */
export async function revokeAccessToken(db: Database, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('access_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound(`no access token with id ${id}`);
}

/** True when the token row still exists for this exact token; records the use. */
export async function checkAccessToken(db: Database, tokenId: string, token: string): Promise<boolean> {
  const row = await db.selectFrom('access_tokens').select(['id', 'token_hash', 'last_used_at']).where('id', '=', tokenId).executeTakeFirst();
  if (!row || row.token_hash !== sha256Hex(token)) return false;
  await recordCredentialUse(db, 'access_tokens', tokenId);
  return true;
}
