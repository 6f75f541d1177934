import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { ALL_TIME, type PlaysWindow } from './rollups/reads.ts';
import { withTimeZone } from './time-zone.ts';

/**
 * Rolling windows end now; `year` is a calendar year in the time zone. Earshot's own names come
 * first, then the values the spec's source system takes (`week`, `2weeks`, `month`, `3months`),
 * so its clients' requests work unchanged: each is a span of whole days like Earshot's.
 */
export const PERIOD_DAYS = { last7days: 7, last30days: 30, last90days: 90, last365days: 365, week: 7, '2weeks': 14, month: 30, '3months': 90 } as const;
export type Period = 'year' | keyof typeof PERIOD_DAYS;
export const PERIODS = ['year', ...Object.keys(PERIOD_DAYS)] as Period[];

/** The span of time statistics cover: [start, end). */
export interface StatsWindow {
  period: Period;
  /** The calendar year, or for a rolling window the year it ends in. */
  year: number;
  start: Date;
  end: Date;
}

interface WindowRow {
  year: number;
  start: Date;
  end: Date;
}

function calendarYear(year: number | undefined, timeZone: string) {
  return sql<WindowRow>`
    select y as year, make_timestamptz(y, 1, 1, 0, 0, 0, ${timeZone}) as start, make_timestamptz(y + 1, 1, 1, 0, 0, 0, ${timeZone}) as end
    from (select coalesce(${year ?? null}::int, extract(year from now() at time zone ${timeZone})::int) as y) chosen`;
}

/** Ends at the next whole second, so an endDate shown without fractions still lies after every play so far. */
function rollingDays(days: number, timeZone: string) {
  return sql<WindowRow>`
    select extract(year from now() at time zone ${timeZone})::int as year, ending - make_interval(days => ${days}) as start, ending as end
    from (select date_trunc('second', now()) + interval '1 second' as ending) e`;
}

/** The window of a period, with calendar boundaries at local midnight in `timeZone`. */
export async function statsWindow(db: Database, period: Period, year: number | undefined, timeZone: string): Promise<StatsWindow> {
  const query = period === 'year' ? calendarYear(year, timeZone) : rollingDays(PERIOD_DAYS[period], timeZone);
  const { rows } = await withTimeZone(timeZone, () => query.execute(db));
  return { period, ...rows[0]! };
}

/** From local midnight of `startDate` to local midnight of `endDate` (YYYY-MM-DD) in `timeZone`; all time on a missing side. */
export async function localDaysWindow(db: Database, startDate: string | undefined, endDate: string | undefined, timeZone: string): Promise<PlaysWindow> {
  const midnight = (date: string | undefined, otherwise: Date) =>
    date === undefined ? sql`${otherwise.toISOString()}::timestamptz` : sql`(${date}::date::timestamp at time zone ${timeZone}::text)`;
  const { rows } = await withTimeZone(timeZone, () =>
    sql<PlaysWindow>`select ${midnight(startDate, ALL_TIME.start)} as start, ${midnight(endDate, ALL_TIME.end)} as end`.execute(db),
  );
  return rows[0]!;
}
