import { authMissing, invalidToken } from '../../toolkit/errors.ts';
import { authenticateApiKey, type ApiKeyOwner } from '../../core/auth/api-keys.ts';
import type { Database } from '../../toolkit/db/index.ts';

/**
 * The credential of an `Authorization: Token <key>` header. Like ListenBrainz,
 * any scheme word is accepted before the token; null when there is no second word.
 */
export function tokenFromHeader(header: string): string | null {
  return /^\s*\S+\s+(\S+)\s*$/.exec(header)?.[1] ?? null;
}

/** The owner of the Earshot API key a ListenBrainz client sends; 401 otherwise. */
export async function requireTokenOwner(db: Database, header: string | undefined): Promise<ApiKeyOwner> {
  if (!header?.trim()) throw authMissing('You need to provide an Authorization header.');
  const token = tokenFromHeader(header);
  if (!token) throw invalidToken('Provided Authorization header is invalid.');
  const owner = await authenticateApiKey(db, token);
  if (!owner) throw invalidToken('Invalid authorization token.');
  return owner;
}
