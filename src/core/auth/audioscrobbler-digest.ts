import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { isSealed, openOrNull, seal } from './encryption.ts';
import { md5Hex } from './hashing.ts';
import { recordCredentialUse } from './usage.ts';

/**
 * Audioscrobbler 1.2 handshakes prove knowledge of md5(key), so the server must be able to
 * recover it; md5(key) alone completes a handshake, so it is kept sealed, bound to its key's id.
 */
export function sealAudioscrobblerDigest(encryptionKey: Uint8Array, apiKeyId: string, key: string): string {
  return seal(encryptionKey, md5Hex(key), digestContext(apiKeyId));
}

/**
 * md5(key) from the stored column; a plaintext digest from before sealing is still accepted.
 * Null when the value does not open for this key (copied from another row, or sealed under
 * another server secret): such a key cannot authenticate, as with a wrong password.
 */
export function openAudioscrobblerDigest(encryptionKey: Uint8Array, apiKeyId: string, stored: string): string | null {
  if (!isSealed(stored)) return stored;
  return openOrNull(encryptionKey, stored, digestContext(apiKeyId));
}

/**
 * The user's API key whose md5 a client's proof was made from (`proves` recomputes the proof from a
 * candidate md5(key) and compares it in constant time), or null; records the key's use. The protocols
 * that ask an old client for "md5(password)" (Audioscrobbler 1.2 handshakes, Last.fm's `authToken`)
 * take an API key as that password: the server never holds a digest of the account password.
 */
export async function apiKeyProvenByDigest(
  db: Database,
  encryptionKey: Uint8Array,
  userId: string,
  proves: (keyDigest: string) => boolean,
): Promise<string | null> {
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'audioscrobbler_digest'])
    .where('user_id', '=', userId)
    .where('audioscrobbler_digest', 'is not', null)
    .execute();
  const key = keys.find((row) => {
    const digest = openAudioscrobblerDigest(encryptionKey, row.id, row.audioscrobbler_digest!);
    return digest !== null && proves(digest);
  });
  if (!key) return null;
  await recordCredentialUse(db, 'api_keys', key.id);
  return key.id;
}

function digestContext(apiKeyId: string): string {
  return `api_keys.audioscrobbler_digest:${apiKeyId}`;
}

/**
 * Seals the plaintext digests stored before sealing existed; run at start-up, so a dump taken
 * after the first start of this version holds none. Each update is conditional on the old
 * value, so servers starting together over one database never seal a digest twice.
 */
export async function sealLegacyAudioscrobblerDigests(db: Database, encryptionKey: Uint8Array): Promise<number> {
  const legacy = await db
    .selectFrom('api_keys')
    .select(['id', 'audioscrobbler_digest'])
    .where('audioscrobbler_digest', 'is not', null)
    .where(sql<boolean>`audioscrobbler_digest not like 'v1:%'`)
    .execute();
  for (const row of legacy) {
    await db
      .updateTable('api_keys')
      .set({ audioscrobbler_digest: seal(encryptionKey, row.audioscrobbler_digest!, digestContext(row.id)) })
      .where('id', '=', row.id)
      .where('audioscrobbler_digest', '=', row.audioscrobbler_digest)
      .execute();
  }
  return legacy.length;
}
