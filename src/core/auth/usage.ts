import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';

/** recordCredentialUse stamps at most this often. */
const USE_STAMP_INTERVAL_MS = 60_000;

/** Whether a credential last used at `lastUsedAt` is due a stamp: checked on the row a lookup read anyway, so most requests stay one read. */
export const useStampDue = (lastUsedAt: Date | null): boolean => lastUsedAt === null || Date.now() - lastUsedAt.getTime() >= USE_STAMP_INTERVAL_MS;

/**
 * Stamps a credential's last use. At most once a minute per credential, so
 * authenticating a request stays a read in the common case.
 */
export async function recordCredentialUse(
  db: Database,
  table: 'api_keys' | 'access_tokens' | 'lastfm_sessions' | 'sign_in_sessions',
  id: string,
): Promise<void> {
  await sql`update ${sql.table(table)} set last_used_at = now()
    where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`.execute(db);
}
