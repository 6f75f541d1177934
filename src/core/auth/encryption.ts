import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the server must be able to use again (Audioscrobbler digests, later provider tokens)
 * are sealed with AES-256-GCM under `ServerKeys.encryption`, so a database dump alone reveals
 * nothing usable. `v1:` marks the format, so plaintext written before sealing is recognisable.
 */
const PREFIX = 'v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/**
 * Encrypts with a fresh random nonce. `context` (e.g. the row id) is authenticated, not stored:
 * a sealed value copied onto another row does not open there.
 */
export function seal(key: Uint8Array, plaintext: string, context: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/** Decrypts a sealed value; throws when it was altered, sealed under another key or for another context. */
export function open(key: Uint8Array, sealed: string, context: string): string {
  if (!isSealed(sealed)) throw new Error('not a sealed value');
  const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed value is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES)).setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** The plaintext, or null when the value does not open here (altered, copied from another row, or sealed under another secret). */
export function openOrNull(key: Uint8Array, sealed: string, context: string): string | null {
  try {
    return open(key, sealed, context);
  } catch {
    return null;
  }
}
