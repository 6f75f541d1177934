import { sql, type RawBuilder } from 'kysely';
import { quarterSpan } from './pieces.ts';
import { at, hourlyRows, localHourPlays, offsetSeconds, quarterRows, utcDayOf, type HourlyReader, type PlaysWindow } from './reads.ts';

/** What a row of localTimeCounts counts, as the numbers grouping() gives a grouping set of (local day, local hour, UTC day). */
export const LOCAL_DAY = 3;
export const LOCAL_HOUR = 5;
export const UTC_DAY = 6;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The 96 running sums of a day row (migration 0033), each summed over a group of rows, as an array. */
const summedQuarters = sql.raw(`array[${Array.from({ length: 96 }, (_, i) => `sum(upto[${i + 1}])`).join(', ')}]`);

/**
 * A user's plays in a window by local time in `zone`, as rows (set, day, hour, utc_day, plays): the
 * plays of each local day (set LOCAL_DAY, `day` its date), of each local hour of the day (LOCAL_HOUR,
 * `hour` 0-23) and of each UTC day (UTC_DAY, `utc_day` its midnight); rows with no plays may appear.
 *
 * The window's whole UTC days in which the zone's offset holds (and is whole quarter hours) are read
 * from the day rows, 365 for a year: the zone is `ahead` quarters ahead of UTC all day, so the local
 * date turns once, `turn` quarters in (96 when the day starts on a local midnight), and its plays
 * up to then are upto[turn], on the local date of its start, the rest on the next; its plays per
 * quarter, summed over the days of one offset, are the plays per local hour turned by `ahead`. The
 * rest (the days at the window's edges, the days the offset changes in, the changes still queued
 * and the raw plays of partial quarters) is read quarter by quarter and play by play
 * (localHourPlays), each converted on its own.
 */
export function localTimeCounts(userId: string, window: PlaysWindow, zone: string): RawBuilder<{ set: number; plays: number }> {
  const tz = sql`${zone}::text`;
  const span = quarterSpan(window.start, window.end);
  const [firstDay, lastDay] = [new Date(Math.ceil(span.from.getTime() / DAY_MS) * DAY_MS), new Date(Math.floor(span.to.getTime() / DAY_MS) * DAY_MS)];
  const ofUser = sql`h.user_id = ${userId}`;
  // The hourly rollup outside the regular days, [from, to) being the span: the edges, and the whole days whose offset changes.
  const otherHours: HourlyReader = (from, to, zoneText) => {
    const firstHour = at(new Date(Math.floor(from.getTime() / HOUR_MS) * HOUR_MS));
    return quarterRows(
      firstDay >= lastDay
        ? hourlyRows(ofUser, firstHour, at(to))
        : sql`${hourlyRows(ofUser, firstHour, at(firstDay))}
          union all ${hourlyRows(ofUser, at(lastDay), at(to))}
          union all select h.* from whole_days d cross join lateral (${hourlyRows(ofUser, sql`d.day`, sql`d.day + interval '1 day'`)}) h where not d.regular`,
      from,
      to,
      zoneText,
    );
  };
  const local = sql`select grouping(local_at::date, extract(hour from local_at)::int, ${utcDayOf(sql`at`)}),
      local_at::date, extract(hour from local_at)::int, ${utcDayOf(sql`at`)}, sum(plays)
    from (${localHourPlays(userId, window, zone, otherHours)}) plays
    group by grouping sets ((local_at::date), (extract(hour from local_at)::int), (${utcDayOf(sql`at`)}))`;
  if (firstDay >= lastDay) return sql`select * from (${local}) counted (set, day, hour, utc_day, plays)`;
  return sql`
    with whole_days as materialized (
      select day, upto, local_start::date as local_date, start_offset / 900 as ahead,
        coalesce(nullif((-start_offset / 900 % 96 + 96) % 96, 0), 96) as turn,
        start_offset = end_offset and start_offset % 900 = 0 as regular
      from (
        -- offset 0 keeps the subquery whole, so each conversion runs once per day rather than once per use.
        select d.day, d.upto, d.day at time zone ${tz} as local_start, ${offsetSeconds(sql`d.day`, tz)} as start_offset,
          ${offsetSeconds(sql`(d.day + interval '1 day')`, tz)} as end_offset
        from stats_days d where d.user_id = ${userId} and d.day >= ${at(firstDay)} and d.day < ${at(lastDay)} offset 0
      ) d
    )
    select set, day, hour, utc_day, sum(plays)::int as plays from (
      select ${sql.lit(LOCAL_DAY)} as set, local_date as day, null::int as hour, null::timestamptz as utc_day, upto[turn] as plays from whole_days where regular
      union all
      select ${sql.lit(LOCAL_DAY)}, local_date + 1, null, null, upto[96] - upto[turn] from whole_days where regular and turn < 96
      union all
      select ${sql.lit(UTC_DAY)}, null, null, day, upto[96] from whole_days where regular
      union all
      select ${sql.lit(LOCAL_HOUR)}, null, ((i + ahead) % 96 + 96) % 96 / 4, null, s[i + 1] - coalesce(s[i], 0)
      from (select ahead, ${summedQuarters} as s from whole_days where regular group by 1) by_offset cross join generate_series(0, 95) i
      union all
      ${local}
    ) counted group by 1, 2, 3, 4`;
}
