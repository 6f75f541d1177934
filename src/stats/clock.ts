import { sql, type SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';
import { withTimeZone } from './time-zone.ts';

export interface ClockQuery {
  userId: string;
  /** Local dates (YYYY-MM-DD): from `startDate` inclusive to `endDate` exclusive. */
  startDate?: string | undefined;
  endDate?: string | undefined;
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
  const zone = sql`${query.timeZone}::text`;
  const localMidnight = (date: string) => sql`(${date}::date::timestamp at time zone ${zone})`;
  const conditions = [
    sql<SqlBool>`s.user_id = ${query.userId}`,
    ...(query.startDate ? [sql<SqlBool>`s.listened_at >= ${localMidnight(query.startDate)}`] : []),
    ...(query.endDate ? [sql<SqlBool>`s.listened_at < ${localMidnight(query.endDate)}`] : []),
  ];
  // Raw SQL: the grouping is on expressions of the local wall-clock time, which Kysely's builder cannot name
  // without the same sql fragments. isodow counts Monday as 1 and Sunday as 7, so Monday becomes 0.
  const { rows } = await withTimeZone(query.timeZone, () =>
    sql<ClockCell>`
      select (extract(isodow from local_time)::int - 1) as weekday, extract(hour from local_time)::int as hour, count(*)::int as count
      from (select s.listened_at at time zone ${zone} as local_time from scrobbles s where ${sql.join(conditions, sql` and `)}) plays
      group by 1, 2 order by 1, 2`.execute(db),
  );
  return rows;
}
