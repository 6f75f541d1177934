import { sql } from 'kysely';
import { NO_JIT, withSettings, type Database } from '../../toolkit/db/index.ts';
import { localPlays, type PlaysWindow } from './rollups/reads.ts';
import { withTimeZone } from './time-zone.ts';

export interface ClockQuery {
  userId: string;
  window: PlaysWindow;
  timeZone: string;
}

export interface ClockCell {
  /** Monday = 0 … Sunday = 6. */
  weekday: number;
  hour: number;
  count: number;
}

/** One user's plays by local weekday and hour; only cells with plays, Monday 00:00 first. */
export async function listeningClock(db: Database, query: ClockQuery): Promise<ClockCell[]> {
  // Raw SQL: the grouping is on the local wall-clock time of the rows of the hourly rollup.
  // isodow counts Monday as 1 and Sunday as 7, so Monday becomes 0.
  const { rows } = await withTimeZone(query.timeZone, () =>
    withSettings(db, NO_JIT, (tx) =>
      sql<ClockCell>`
        select (extract(isodow from local_time)::int - 1) as weekday, extract(hour from local_time)::int as hour, sum(plays)::int as count
        from (select q.local_at as local_time, q.plays from (${localPlays(query.userId, query.window, query.timeZone)}) q) plays
        group by 1, 2 having sum(plays) > 0 order by 1, 2`.execute(tx),
    ),
  );
  return rows;
}
