import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's minimum for scrypt (Password Storage Cheat Sheet): N = 2^17, r = 8, p = 1, about 128 MiB per hash. */
export const OWASP_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The cost new hashes get. EARSHOT_SCRYPT_LOG2_N lowers N only so a test suite that signs up
 * hundreds of accounts stays fast; a server keeps OWASP's minimum, and raising it later rehashes
 * each password at its owner's next sign-in.
 */
export function currentScryptCost(env: NodeJS.ProcessEnv = process.env): ScryptCost {
  const log2 = Number(env.EARSHOT_SCRYPT_LOG2_N);
  return Number.isInteger(log2) && log2 >= 10 && log2 <= 20 ? { ...OWASP_SCRYPT_COST, N: 2 ** log2 } : OWASP_SCRYPT_COST;
}

const KEY_LENGTH = 64;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // Node refuses more than 32 MiB by default; scrypt needs 128·N·r bytes, and a little more.
  const maxmem = 256 * cost.N * cost.r;
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Encoded as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string, cost: ScryptCost = currentScryptCost()): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parseHash(encoded: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | undefined {
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return undefined;
  return { cost: { N: Number(n), r: Number(r), p: Number(p) }, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.cost);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** Whether a stored hash was made at another cost than new hashes get (so it is redone at the next sign-in). */
export function needsRehash(encoded: string, cost: ScryptCost = currentScryptCost()): boolean {
  const parsed = parseHash(encoded);
  return !parsed || parsed.cost.N !== cost.N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}
