/**
 * What autovacuum would do for the statistics' tables, which PGlite does not do on its own.
 *
 * The dead rows the fold leaves behind. Every fold batch updates rollup rows in place (a play adds
 * to its track's totals, counts, hours, days and group counts), and an update whose column is
 * indexed (plays, in the ranked indexes) leaves a dead row and dead index entries until VACUUM. PGlite runs
 * no autovacuum, so there they pile up for good: a profile's counts took 38 ms after a 100k-play
 * import was folded and 72 ms after four more, reading the dead entries of the user's totals
 * (docs/benchmarks.md). PostgreSQL's autovacuum waits for a fifth of a table to be dead. So after
 * a large drain the fold job vacuums the rollups itself, and analyzes them: PGlite never gathers
 * planner statistics on its own either.
 *
 * And the queue's picture in the planner. On PGlite every statement is prepared (pglite-statements.ts),
 * and after five runs PostgreSQL may keep one generic plan for it, made from the statistics of that
 * moment and remade only when they change. A statistics read planned while the queue was empty
 * (the steady state) then summed a 100k-play import's queue by sorting it: a profile's counts took
 * 100-160 ms where a plan made for the queue at hand takes 60-70. And the import's rows are first
 * read by whoever reads them first, who pays to check them (some 30 ms of a first profile visit).
 * So once the queue has grown large (`analyzeGrownQueue`), the fold analyzes it: the statistics
 * change, every plan over the queue is made again for its size, and the rows are checked.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';

/** Changes folded (by this process) after which the rollups are vacuumed: some 150k dead rows across them. */
export const VACUUM_AFTER = 20_000;

/** Queued changes from which a queue that has (at least) doubled since it was last analyzed is analyzed again. */
export const QUEUE_ANALYZE_AFTER = 10_000;

/** The tables the fold updates in place; the queue itself is truncated once drained (queue-marks.ts). */
const FOLDED_TABLES = [
  'stats_track_counts',
  'stats_hours',
  'stats_days',
  'stats_track_totals',
  'stats_catalog_plays',
  'stats_artist_totals',
  'stats_album_totals',
  'stats_group_counts',
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

/**
 * Analyzes stats_queue when it holds at least `after` changes and twice as many as when it was last
 * analyzed (pg_class.reltuples; -1, unknown, once truncated): a queue that grows by an import is
 * analyzed a few times on the way (at 10k, 20k, 40k, ... changes), each a sample of at most 30k
 * rows (50-90 ms on PGlite for 100k queued); one that drains is left as it is. Answers whether it analyzed.
 */
export async function analyzeGrownQueue(db: Database, after = QUEUE_ANALYZE_AFTER): Promise<boolean> {
  const { rows } = await sql<{ queued: number; known: number }>`
    select coalesce((select sum(queued) from stats_queue_users), 0)::float8 as queued,
      (select reltuples from pg_class where oid = 'stats_queue'::regclass)::float8 as known`.execute(db);
  const { queued, known } = rows[0]!;
  if (queued < after || queued < 2 * Math.max(known, 0)) return false;
  await asHeavyWork(() => sql`analyze (skip_locked) stats_queue`.execute(db));
  return true;
}
