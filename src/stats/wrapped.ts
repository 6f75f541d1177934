import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { isoDateTime } from '../api/schemas.ts';
import { userFromActorParam } from '../auth/index.ts';
import type { Wrapped } from './schemas.ts';
import { chooseTimeZone, withTimeZone } from './time-zone.ts';
import { statsWindow, type Period, type StatsWindow } from './window.ts';

type Aggregates = Omit<Wrapped, 'year' | 'period' | 'startDate' | 'endDate' | 'mostActiveDay' | 'firstScrobble' | 'lastScrobble'> & {
  mostActiveDay: Wrapped['mostActiveDay'] | null;
  firstScrobble: Wrapped['firstScrobble'] | null;
  lastScrobble: Wrapped['lastScrobble'] | null;
};

/** A JSON array of `row` over `source`, empty rather than null. */
const jsonList = (row: ReturnType<typeof sql>, source: ReturnType<typeof sql>) =>
  sql`(select coalesce(json_agg(json_strip_nulls(${row}) order by ordinal), '[]') from (${source}) ranked)`;

function moment(direction: 'asc' | 'desc') {
  return sql`(select json_build_object('trackTitle', t.title, 'artistName', t.artist, 'timestamp', to_char(p.listened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'trackUri', t.uri)
    from (select track_id, listened_at from plays order by listened_at ${sql.raw(direction)}, id ${sql.raw(direction)} limit 1) p
    join tracks t on t.id = p.track_id)`;
}

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
      select s.id, s.listened_at, s.track_id, t.artist_id, t.album_id, t.duration,
        coalesce(t.genre, al.genre) as genre, s.listened_at at time zone ${zone} as local_at
      from scrobbles s join tracks t on t.id = s.track_id left join albums al on al.id = t.album_id
      where s.user_id = ${userId} and s.listened_at >= ${start} and s.listened_at < ${end}
    ),
    totals as (select count(*)::int as scrobbles, (coalesce(sum(duration), 0) / 60000)::int as minutes from plays),
    local_days as (select local_at::date as day, count(*)::int as count from plays group by 1),
    streaks as (select count(*)::int as length from (select day - (row_number() over (order by day))::int as run from local_days) d group by run)
    select
      totals.scrobbles as "totalScrobbles",
      totals.minutes as "totalListeningTimeMinutes",
      ${jsonList(
        sql`json_build_object('id', id, 'name', name, 'picture', picture, 'uri', uri, 'playCount', play_count)`,
        sql`select a.id, a.name, a.picture, a.uri, c.play_count, row_number() over (order by c.play_count desc, a.name, a.id) as ordinal
          from (select artist_id, count(*)::int as play_count from plays group by artist_id) c join artists a on a.id = c.artist_id
          order by ordinal limit 5`,
      )} as "topArtists",
      ${jsonList(
        sql`json_build_object('id', id, 'title', title, 'artist', artist, 'albumArt', album_art, 'uri', uri, 'artistUri', artist_uri, 'albumUri', album_uri, 'playCount', play_count)`,
        sql`select t.id, t.title, t.artist, coalesce(t.album_art, al.album_art) as album_art, t.uri, ar.uri as artist_uri, al.uri as album_uri,
            c.play_count, row_number() over (order by c.play_count desc, t.title, t.id) as ordinal
          from (select track_id, count(*)::int as play_count from plays group by track_id) c join tracks t on t.id = c.track_id
          left join artists ar on ar.id = t.artist_id left join albums al on al.id = t.album_id
          order by ordinal limit 5`,
      )} as "topTracks",
      ${jsonList(
        sql`json_build_object('id', id, 'title', title, 'artist', artist, 'albumArt', album_art, 'uri', uri, 'playCount', play_count)`,
        sql`select al.id, al.title, al.artist, al.album_art, al.uri, c.play_count, row_number() over (order by c.play_count desc, al.title, al.id) as ordinal
          from (select album_id, count(*)::int as play_count from plays group by album_id) c join albums al on al.id = c.album_id
          order by ordinal limit 6`,
      )} as "topAlbums",
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
      ${moment('asc')} as "firstScrobble",
      ${moment('desc')} as "lastScrobble"
    from totals`;
}

/** A user's Wrapped over a window; days, months and hours are counted in `timeZone`, scrobblesPerDay in UTC. */
async function computeWrapped(db: Database, userId: string, window: StatsWindow, timeZone: string): Promise<Wrapped> {
  const { rows } = await withTimeZone(timeZone, () => aggregatesQuery(userId, window, timeZone).execute(db));
  const { mostActiveDay, firstScrobble, lastScrobble, ...aggregates } = rows[0]!;
  return {
    year: window.year,
    period: window.period,
    startDate: isoDateTime(window.start),
    endDate: isoDateTime(window.end),
    ...aggregates,
    ...(mostActiveDay ? { mostActiveDay } : {}),
    ...(firstScrobble ? { firstScrobble } : {}),
    ...(lastScrobble ? { lastScrobble } : {}),
  };
}

export interface WrappedRequest {
  /** DID or handle. */
  actor: string;
  period: Period;
  year?: number | undefined;
  /** IANA name; the user's setting when absent. */
  timeZone?: string | undefined;
}

/** The Wrapped getWrapped answers with: 400 for a malformed actor or time zone, 404 for an unknown user. */
export async function wrappedFor(db: Database, request: WrappedRequest): Promise<Wrapped> {
  const user = await userFromActorParam(db, request.actor);
  const timeZone = chooseTimeZone(request.timeZone, user.timezone);
  const window = await statsWindow(db, request.period, request.year, timeZone);
  return computeWrapped(db, user.id, window, timeZone);
}
