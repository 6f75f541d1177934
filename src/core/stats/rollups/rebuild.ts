import { sql } from 'kysely';
import { inTransaction, type Database } from '../../../toolkit/db/index.ts';

/**
 * Throws the rollups away and computes them again from the raw plays, set-based, with the
 * stats_rebuild() function migration 0012 defines and runs (0021 adds the totals), then the day
 * rows with 0033's stats_days_fill() (seconds for millions of plays, where folding them would
 * take minutes): the repair for rollups suspected wrong, and what the fold must
 * always agree with (rollups.test.ts). Writes to scrobbles wait meanwhile; reads wait for the
 * commit. Answers how many plays it counted.
 */
export async function rebuildRollups(db: Database): Promise<number> {
  return inTransaction(db, async (tx) => {
    // Stops writers (whose queued changes the rebuild would otherwise lose) before truncating.
    await sql`lock table scrobbles in share mode`.execute(tx);
    // Groupings of millions of rows: in memory rather than spilled to disk in batches.
    await sql`set local work_mem = '256MB'`.execute(tx);
    const { rows } = await sql<{ counted: number }>`select stats_rebuild() as counted`.execute(tx);
    // The day rows from the hourly ones stats_rebuild() just made (migration 0033).
    await sql`select stats_days_fill()`.execute(tx);
    return rows[0]!.counted;
  });
}
