import { sql, type SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';
import { withTimeZone } from './time-zone.ts';

export interface ChartQuery {
  /** One user's plays; everyone's when absent. */
  userId?: string | undefined;
  /** Local dates (YYYY-MM-DD): from `startDate` inclusive to `endDate` exclusive. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZone: string;
}

/** Plays per local day, only days with plays, oldest first. */
export async function scrobblesPerDay(db: Database, query: ChartQuery): Promise<{ date: string; count: number }[]> {
  const zone = sql`${query.timeZone}::text`;
  const localMidnight = (date: string) => sql`(${date}::date::timestamp at time zone ${zone})`;
  const conditions = [
    ...(query.userId ? [sql<SqlBool>`s.user_id = ${query.userId}`] : []),
    ...(query.startDate ? [sql<SqlBool>`s.listened_at >= ${localMidnight(query.startDate)}`] : []),
    ...(query.endDate ? [sql<SqlBool>`s.listened_at < ${localMidnight(query.endDate)}`] : []),
  ];
  const { rows } = await withTimeZone(query.timeZone, () =>
    sql<{ date: string; count: number }>`
      select to_char(local_day, 'YYYY-MM-DD') as date, count(*)::int as count
      from (select (s.listened_at at time zone ${zone})::date as local_day from scrobbles s
            ${conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}) days
      group by local_day order by local_day`.execute(db),
  );
  return rows;
}
