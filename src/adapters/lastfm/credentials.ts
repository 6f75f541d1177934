import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Compares a client's hex digest with the expected one without revealing where they differ. */
export function digestsEqual(received: string, expected: string): boolean {
  const a = Buffer.from(received.toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Session keys, tokens and session ids: 128 random bits as 32 hex characters, the shape Last.fm clients expect. */
export function newRandomKey(): string {
  return randomBytes(16).toString('hex');
}
