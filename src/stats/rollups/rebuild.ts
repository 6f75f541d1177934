import { sql } from 'kysely';
import { inTransaction, type Database } from '../../db/index.ts';
import { foldAll } from './fold.ts';

/**
 * Throws the rollups away and folds them again from the raw plays: the repair for rollups
 * suspected wrong, and what the fold must always agree with (rollups.test.ts). Writes to
 * scrobbles wait while the queue is refilled (a few seconds for millions of plays); reads go on,
 * exact throughout, slower until the fold has caught up. Answers how many plays were folded.
 */
export async function rebuildRollups(db: Database, signal?: AbortSignal): Promise<number> {
  await inTransaction(db, async (tx) => {
    // Scrobbles first, as writers take them, so no writer holds the queue while waiting for scrobbles.
    await sql`lock table scrobbles in share mode`.execute(tx);
    await sql`truncate stats_queue, stats_track_counts, stats_hours, stats_first_plays`.execute(tx);
    await sql`insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, 1 from scrobbles order by listened_at`.execute(tx);
  });
  return foldAll(db, signal);
}
