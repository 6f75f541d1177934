import { openOrNull, seal } from './encryption.ts';

/**
 * Subsonic token authentication sends md5(key + salt), so checking it needs the key itself; it is
 * kept sealed, bound to its key's id, so a database dump alone yields no usable key.
 */
export function sealSubsonicKey(encryptionKey: Uint8Array, apiKeyId: string, key: string): string {
  return seal(encryptionKey, key, subsonicKeyContext(apiKeyId));
}

/** The key, or null when the stored value does not open for this row (copied, or sealed under another secret). */
export function openSubsonicKey(encryptionKey: Uint8Array, apiKeyId: string, stored: string): string | null {
  return openOrNull(encryptionKey, stored, subsonicKeyContext(apiKeyId));
}

function subsonicKeyContext(apiKeyId: string): string {
  return `api_keys.subsonic_key:${apiKeyId}`;
}
