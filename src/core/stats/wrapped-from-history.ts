import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import type { Wrapped } from './schemas.ts';
import { withTimeZone } from './time-zone.ts';
import type { StatsWindow } from './window.ts';
import { assembleWrapped, jsonList, moment, topLists, type Aggregates } from './wrapped.ts';

/**
 * Every aggregate of a Wrapped in one statement: the window's plays are read
 * once (the `plays` CTE, over scrobbles_user_time_idx) and each statistic is
 * an aggregate over them; top lists count plays by id before joining the
 * catalog for names. Ties in top lists go to the name (title), then the id.
 */
function aggregatesQuery(userId: string, window: StatsWindow, timeZone: string) {
  const start = sql`${window.start}::timestamptz`;
  const end = sql`${window.end}::timestamptz`;
  const zone = sql`${timeZone}::text`;
  return sql<Aggregates>`
    with plays as materialized (
      select s.id, s.listened_at, s.track_id, s.played_ms, t.artist_id, t.album_id, t.duration,
        coalesce(t.genre, al.genre) as genre, s.listened_at at time zone ${zone} as local_at
      from scrobbles s join tracks t on t.id = s.track_id left join albums al on al.id = t.album_id
      where s.user_id = ${userId} and s.listened_at >= ${start} and s.listened_at < ${end}
    ),
    totals as (select count(*)::int as scrobbles, count(played_ms)::int as measured,
      (coalesce(sum(coalesce(played_ms, duration)), 0) / 60000)::int as minutes, (coalesce(sum(played_ms), 0) / 60000)::int as measured_minutes from plays),
    local_days as (select local_at::date as day, count(*)::int as count from plays group by 1),
    streaks as (select count(*)::int as length from (select day - (row_number() over (order by day))::int as run from local_days) d group by run)
    select
      totals.scrobbles as "totalScrobbles",
      totals.minutes as "totalListeningTimeMinutes",
      totals.measured as "measuredScrobbles",
      totals.measured_minutes as "measuredListeningTimeMinutes",
      ${topLists({ artists: sql`(select artist_id, count(*)::int as play_count from plays group by artist_id)`, tracks: sql`(select track_id, count(*)::int as play_count from plays group by track_id)`, albums: sql`(select album_id, count(*)::int as play_count from plays group by album_id)` })},
      ${jsonList(
        sql`json_build_object('genre', genre, 'count', count)`,
        sql`select genre, count(*)::int as count, row_number() over (order by count(*) desc, genre) as ordinal
          from plays where genre is not null group by genre order by ordinal limit 10`,
      )} as "topGenres",
      ${jsonList(
        sql`json_build_object('month', extract(month from month)::int, 'count', count)`,
        sql`select m.month, coalesce(c.count, 0) as count, row_number() over (order by m.month) as ordinal
          from generate_series(date_trunc('month', ${start} at time zone ${zone}), ${end} at time zone ${zone} - interval '1 microsecond', interval '1 month') m (month)
          left join (select date_trunc('month', local_at) as month, count(*)::int as count from plays group by 1) c on c.month = m.month`,
      )} as "scrobblesPerMonth",
      ${jsonList(
        sql`json_build_object('date', date, 'count', count)`,
        sql`select to_char(utc_day, 'YYYY-MM-DD') as date, count, row_number() over (order by utc_day) as ordinal
          from (select (listened_at at time zone 'UTC')::date as utc_day, count(*)::int as count from plays group by 1) days`,
      )} as "scrobblesPerDay",
      (select json_build_object('date', to_char(day, 'YYYY-MM-DD'), 'count', count) from local_days order by count desc, day limit 1) as "mostActiveDay",
      coalesce((select extract(hour from local_at)::int from plays group by 1 order by count(*) desc, 1 limit 1), 0) as "mostActiveHour",
      (select count(*)::int from (select distinct artist_id from plays where artist_id is not null) heard
        where not exists (
          select 1 from scrobbles s join tracks t on t.id = s.track_id
          where s.user_id = ${userId} and s.listened_at < ${start} and t.artist_id = heard.artist_id
        )) as "newArtistsCount",
      coalesce((select max(length) from streaks), 0) as "longestStreak",
      ${moment(sql`plays`, 'asc')} as "firstScrobble",
      ${moment(sql`plays`, 'desc')} as "lastScrobble"
    from totals`;
}

/**
 * A Wrapped computed from the raw history alone, in one statement: the reference the rollups
 * must agree with field for field (rollups.test.ts) and the baseline `npm run bench wrapped`
 * measures them against. Serving never calls it.
 */
export async function wrappedFromHistory(db: Database, userId: string, window: StatsWindow, timeZone: string): Promise<Wrapped> {
  const { rows } = await withTimeZone(timeZone, () => aggregatesQuery(userId, window, timeZone).execute(db));
  return assembleWrapped(window, rows[0]!);
}
