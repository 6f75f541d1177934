import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { localPlays } from './rollups/reads.ts';
import { withTimeZone } from './time-zone.ts';
import { localDaysWindow } from './window.ts';

export interface ChartQuery {
  /** One user's plays; everyone's when absent. */
  userId?: string | undefined;
  /** Local dates (YYYY-MM-DD): from `startDate` inclusive to `endDate` exclusive. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZone: string;
}

/** Plays per local day, only days with plays, oldest first; from the hourly rollup (raw SQL: a grouping on local dates). */
export async function scrobblesPerDay(db: Database, query: ChartQuery): Promise<{ date: string; count: number }[]> {
  const window = await localDaysWindow(db, query.startDate, query.endDate, query.timeZone);
  const { rows } = await withTimeZone(query.timeZone, () =>
    sql<{ date: string; count: number }>`
      select to_char(q.local_at::date, 'YYYY-MM-DD') as date, sum(q.plays)::int as count
      from (${localPlays(query.userId ?? null, window, query.timeZone)}) q
      group by 1 having sum(q.plays) > 0 order by 1`.execute(db),
  );
  return rows;
}
