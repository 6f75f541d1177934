import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';

/**
 * One process at a time enriches (MusicBrainz's one request a second is per client, not per
 * process). The holder renews the lease before each entry; one entry's few requests, each
 * bounded by the provider timeout and retries, end well within it, and a crashed holder's lease
 * lapses after it.
 */
const LEASE = sql`interval '15 minutes'`;

/** Takes or renews the lease for `holder`: one conditional UPDATE, atomic on PostgreSQL and PGlite alike. */
export async function claimLease(db: Database, holder: string): Promise<boolean> {
  const claimed = await db
    .updateTable('enrichment_lease')
    .set({ holder, until: sql<Date>`now() + ${LEASE}` })
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '<', sql<Date>`now()`), eb('holder', '=', holder)]))
    .returning('holder')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function releaseLease(db: Database, holder: string): Promise<void> {
  await db.updateTable('enrichment_lease').set({ holder: null, until: null }).where('holder', '=', holder).execute();
}
