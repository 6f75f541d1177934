import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../core/context.ts';
import { authenticateApiKey } from '../../core/auth/api-keys.ts';
import { md5Hex } from '../../core/auth/hashing.ts';
import { normalizeHandle } from '../../core/auth/identifiers.ts';
import { openSubsonicKey } from '../../core/auth/subsonic-key.ts';
import { recordCredentialUse } from '../../core/auth/usage.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import { LibraryError, missingParameter } from '../../core/library/errors.ts';
import type { SubsonicParams } from './method.ts';

const wrongCredentials = () => new LibraryError('WrongCredentials', 'wrong username or password');

/**
 * The caller of a Subsonic request: `u` is the user's handle and the password one of their API
 * keys, sent as `p=<key>`, `p=enc:<hex>`, `t=md5(key + s)` with `s`, or OpenSubsonic's
 * `apiKey=<key>` without `u`.
 */
export async function authenticateSubsonic(ctx: AppContext, params: SubsonicParams): Promise<Viewer> {
  const apiKey = params.get('apiKey');
  const username = params.get('u');
  if (apiKey !== undefined) {
    // OpenSubsonic: u beside apiKey, or any other credential with it, is error 43.
    if (username !== undefined) throw new LibraryError('ConflictingAuth', 'apiKey authentication takes no u parameter');
    if (['p', 't', 's'].some((name) => params.get(name) !== undefined)) {
      throw new LibraryError('ConflictingAuth', 'multiple conflicting authentication mechanisms provided: apiKey goes without p, t and s');
    }
    const owner = await authenticateApiKey(ctx.db, apiKey);
    if (!owner) throw new LibraryError('InvalidApiKey', 'invalid API key');
    return viewer(owner);
  }
  if (username === undefined) throw missingParameter('u');
  const password = params.get('p');
  if (password !== undefined) return passwordAuth(ctx, username, decodePassword(password));
  const token = params.get('t');
  const salt = params.get('s');
  if (token !== undefined && salt !== undefined) return tokenAuth(ctx, username, token, salt);
  throw missingParameter(token === undefined ? 'p or t' : 's');
}

function viewer(owner: Viewer): Viewer {
  return { userId: owner.userId, did: owner.did, handle: owner.handle, credential: 'api-key' };
}

/** `enc:` passwords are the key's UTF-8 bytes in hex; an odd or non-hex one cannot be a key. */
function decodePassword(password: string): string {
  if (!password.startsWith('enc:')) return password;
  const hex = password.slice(4);
  return /^(?:[0-9a-fA-F]{2})*$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : '';
}

async function passwordAuth(ctx: AppContext, username: string, key: string): Promise<Viewer> {
  const owner = await authenticateApiKey(ctx.db, key);
  if (!owner || owner.handle !== normalizeHandle(username)) throw wrongCredentials();
  return viewer(owner);
}

/** Opens each of the user's sealed keys and compares md5(key + salt) in constant time. */
async function tokenAuth(ctx: AppContext, username: string, token: string, salt: string): Promise<Viewer> {
  const rows = await ctx.db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id as apiKeyId', 'api_keys.subsonic_key', 'users.id as userId', 'users.did', 'users.handle'])
    .where('users.handle', '=', normalizeHandle(username))
    .execute();
  // An md5 is 32 hex characters; only the comparison of the digests themselves must not leak timing.
  const given = Buffer.from(token.toLowerCase());
  const matches = (key: string) => given.length === 32 && timingSafeEqual(Buffer.from(md5Hex(key + salt)), given);
  for (const row of rows) {
    const key = row.subsonic_key === null ? null : openSubsonicKey(ctx.keys.encryption, row.apiKeyId, row.subsonic_key);
    if (key !== null && matches(key)) {
      await recordCredentialUse(ctx.db, 'api_keys', row.apiKeyId);
      return { userId: row.userId, did: row.did, handle: row.handle, credential: 'api-key' };
    }
  }
  if (rows.length > 0 && rows.every((row) => row.subsonic_key === null)) {
    throw new LibraryError(
      'TokenAuthUnsupported',
      'this account only has API keys made before token authentication; send the key as p= or apiKey=, or create a new key',
    );
  }
  throw wrongCredentials();
}
