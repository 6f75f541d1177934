import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { isSealed, openOrNull, seal } from './encryption.ts';
import { md5Hex } from './hashing.ts';

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
