import { sql } from 'kysely';
import { NO_JIT, withSettings, type Database } from '../../toolkit/db/index.ts';
import { localPlays, type PlaysWindow } from './rollups/reads.ts';
import { withTimeZone } from './time-zone.ts';

export interface ChartQuery {
  /** One user's plays; everyone's when absent. */
  userId?: string | undefined;
  window: PlaysWindow;
  timeZone: string;
}

/** Plays per local day, only days with plays, oldest first; from the hourly rollup (raw SQL: a grouping on local dates). */
export async function scrobblesPerDay(db: Database, query: ChartQuery): Promise<{ date: string; count: number }[]> {
  const { rows } = await withTimeZone(query.timeZone, () =>
    withSettings(db, NO_JIT, (tx) =>
      sql<{ date: string; count: number }>`
        select to_char(q.local_at::date, 'YYYY-MM-DD') as date, sum(q.plays)::int as count
        from (${localPlays(query.userId ?? null, query.window, query.timeZone)}) q
        group by 1 having sum(q.plays) > 0 order by 1`.execute(tx),
    ),
  );
  return rows;
}
