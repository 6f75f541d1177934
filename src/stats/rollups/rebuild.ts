import { sql } from 'kysely';
import { inTransaction, type Database } from '../../db/index.ts';

/**
 * Throws the rollups away and computes them again from the raw plays, set-based (one grouping
 * pass per table, seconds for millions of plays, where folding them would take minutes): the
 * repair for rollups suspected wrong, and what the fold must always agree with
 * (rollups.test.ts). Writes to scrobbles wait meanwhile; reads wait for the commit. Answers how
 * many plays it counted.
 */
export async function rebuildRollups(db: Database): Promise<number> {
  return inTransaction(db, async (tx) => {
    // Scrobbles first, as writers take them, so no writer holds the queue while waiting for scrobbles.
    await sql`lock table scrobbles in share mode`.execute(tx);
    // Groupings of millions of rows: in memory rather than spilled to disk in batches. Rows go
    // in key order, so each user's rows start out side by side in the heap as in the index.
    await sql`set local work_mem = '256MB'`.execute(tx);
    await sql`truncate stats_queue, stats_track_counts, stats_hours, stats_first_plays`.execute(tx);
    await sql`insert into stats_track_counts (user_id, grain, period_start, track_id, plays)
      select s.user_id, g.grain, date_trunc(g.unit, s.listened_at, 'UTC'), s.track_id, count(*)
      from scrobbles s cross join (values ('y'::"char", 'year'), ('m'::"char", 'month'), ('d'::"char", 'day')) g (grain, unit)
      group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(tx);
    await sql`insert into stats_hours (user_id, hour, q0, q1, q2, q3)
      select user_id, hour, count(*) filter (where quarter = 0), count(*) filter (where quarter = 1), count(*) filter (where quarter = 2), count(*) filter (where quarter = 3)
      from (select user_id, date_trunc('hour', listened_at, 'UTC') as hour, extract(minute from listened_at at time zone 'UTC')::int / 15 as quarter from scrobbles) q
      group by 1, 2 order by 1, 2`.execute(tx);
    await sql`insert into stats_first_plays (user_id, track_id, first_at) select user_id, track_id, min(listened_at) from scrobbles group by 1, 2 order by 1, 2`.execute(tx);
    const { rows } = await sql<{ plays: number }>`select coalesce(sum(plays), 0)::int as plays from stats_track_counts where grain = 'y'`.execute(tx);
    return rows[0]!.plays;
  });
}
