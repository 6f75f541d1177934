import { randomBytes } from 'node:crypto';

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const DID_PATTERN = /^did:[a-z]+:[a-zA-Z0-9._:%-]{1,2048}$/;
/** Domain-like handles (`alice`, `alice.example.com`), as in the AT Protocol. */
const HANDLE_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `did:plc:` followed by 24 base32 characters. */
export function generateDid(): string {
  const bytes = randomBytes(24);
  let suffix = '';
  for (const byte of bytes) suffix += BASE32_ALPHABET[byte % 32];
  return `did:plc:${suffix}`;
}

export function isDid(value: string): boolean {
  return DID_PATTERN.test(value);
}

export function normalizeHandle(value: string): string {
  return value.trim().replace(/^@/, '').toLowerCase();
}

export function isHandle(value: string): boolean {
  return HANDLE_PATTERN.test(value);
}

export type Actor = { kind: 'did'; did: string } | { kind: 'handle'; handle: string };

/** Reads a DID or handle, as used by every endpoint that names a user. */
export function parseActor(value: string): Actor | null {
  if (value.startsWith('did:')) return isDid(value) ? { kind: 'did', did: value } : null;
  const handle = normalizeHandle(value);
  return isHandle(handle) ? { kind: 'handle', handle } : null;
}
