import { createHash } from 'node:crypto';

/** Lookup hash for high-entropy secrets (tokens, keys); passwords use scrypt instead. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** MD5, only where a protocol prescribes it: Last.fm signatures and Audioscrobbler handshakes. */
export function md5Hex(value: string): string {
  return createHash('md5').update(value, 'utf8').digest('hex');
}
