/**
 * The dead rows the fold leaves behind. Every fold batch updates rollup rows in place (a play adds
 * to its track's totals, counts, hours, days and year rows), and an update whose column is indexed
 * (plays, in the ranked indexes) leaves a dead row and dead index entries until VACUUM. PGlite runs
 * no autovacuum, so there they pile up for good: a profile's counts took 38 ms after a 100k-play
 * import was folded and 72 ms after four more, reading the dead entries of the user's totals
 * (docs/benchmarks.md). PostgreSQL's autovacuum waits for a fifth of a table to be dead. So after
 * a large drain the fold job vacuums the rollups itself, and analyzes them: PGlite never gathers
 * planner statistics on its own either.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';

/** Changes folded (by this process) after which the rollups are vacuumed: some 150k dead rows across them. */
export const VACUUM_AFTER = 20_000;

/** The tables the fold updates in place; the queue itself is truncated once drained (queue-marks.ts). */
const FOLDED_TABLES = [
  'stats_track_counts',
  'stats_hours',
  'stats_days',
  'stats_track_totals',
  'stats_catalog_plays',
  'stats_artist_totals',
  'stats_album_totals',
  'stats_year_groups',
  'stats_track_groups',
  'stats_queue_users',
] as const;

/**
 * Vacuums and analyzes the rolled-up tables, one statement each, so the embedded database's
 * requests take turns between them (the largest took 130-180 ms on PGlite with 400k plays; a table
 * vacuumed before is mostly skipped by its visibility map). SKIP_LOCKED: a table another process
 * is vacuuming, or one a rebuild holds, is left for the next time.
 */
export async function vacuumRollups(db: Database, signal?: AbortSignal): Promise<void> {
  for (const table of FOLDED_TABLES) {
    if (signal?.aborted) return;
    await asHeavyWork(() => sql`vacuum (analyze, skip_locked) ${sql.table(table)}`.execute(db));
  }
}
