import { createHash } from 'node:crypto';

/** Lookup hash for high-entropy secrets (tokens, keys); passwords use scrypt instead. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
