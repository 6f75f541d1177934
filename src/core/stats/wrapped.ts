import { sql, type RawBuilder } from 'kysely';
import { NO_JIT, setForTransaction, type Database } from '../../toolkit/db/index.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import { userFromActorParam } from '../auth/index.ts';
import { songArt } from '../song-art.ts';
import { exactSum, listeningParts, localPlays } from './rollups/reads.ts';
import { anyQueued } from './rollups/queue-marks.ts';
import type { Wrapped } from './schemas.ts';
import { chooseTimeZone, withTimeZone } from './time-zone.ts';
import { statsWindow, type Period, type StatsWindow } from './window.ts';

export type Aggregates = Omit<Wrapped, 'year' | 'period' | 'startDate' | 'endDate' | 'mostActiveDay' | 'firstScrobble' | 'lastScrobble'> & {
  mostActiveDay: Wrapped['mostActiveDay'] | null;
  firstScrobble: Wrapped['firstScrobble'] | null;
  lastScrobble: Wrapped['lastScrobble'] | null;
};

/**
 * The track with id `id`, as a lateral subquery: one index probe per outer row, never a scan of
 * the whole table to join a handful of rows (the limit keeps the planner from turning it into a
 * join, which Wrapped's statement would otherwise hash: 20k tracks read for 5 rows).
 */
const trackById = (id: RawBuilder<unknown>) => sql`(select * from tracks where id = ${id} limit 1)`;

/** A JSON array of `row` over `source`, empty rather than null. */
export const jsonList = (row: RawBuilder<unknown>, source: RawBuilder<unknown>) =>
  sql`(select coalesce(json_agg(json_strip_nulls(${row}) order by ordinal), '[]') from (${source}) ranked)`;

/**
 * topArtists, topTracks and topAlbums as a Wrapped shows them, from relations of (artist_id |
 * track_id | album_id, play_count): ranked by plays, ties to the name (title), then the id.
 */
export function topLists(counts: { artists: RawBuilder<unknown>; tracks: RawBuilder<unknown>; albums: RawBuilder<unknown> }) {
  return sql`${jsonList(
    sql`json_build_object('id', id, 'name', name, 'picture', picture, 'uri', uri, 'playCount', play_count)`,
    sql`select a.id, a.name, a.picture, a.uri, c.play_count, row_number() over (order by c.play_count desc, a.name, a.id) as ordinal
      from ${counts.artists} c join artists a on a.id = c.artist_id order by ordinal limit 5`,
  )} as "topArtists",
  ${jsonList(
    sql`json_build_object('id', id, 'title', title, 'artist', artist, 'albumArt', album_art, 'uri', uri, 'artistUri', artist_uri, 'albumUri', album_uri, 'playCount', play_count)`,
    sql`select t.id, t.title, t.artist, ${songArt('t')} as album_art, t.uri, ar.uri as artist_uri, al.uri as album_uri,
        c.play_count, row_number() over (order by c.play_count desc, t.title, t.id) as ordinal
      from ${counts.tracks} c cross join lateral ${trackById(sql`c.track_id`)} t
      left join artists ar on ar.id = t.artist_id left join albums al on al.id = t.album_id
      order by ordinal limit 5`,
  )} as "topTracks",
  ${jsonList(
    sql`json_build_object('id', id, 'title', title, 'artist', artist, 'albumArt', album_art, 'uri', uri, 'playCount', play_count)`,
    sql`select al.id, al.title, al.artist, al.album_art, al.uri, c.play_count, row_number() over (order by c.play_count desc, al.title, al.id) as ordinal
      from ${counts.albums} c join albums al on al.id = c.album_id order by ordinal limit 6`,
  )} as "topAlbums"`;
}

/** The first or last play in `plays` (a relation, or a table with its where clause, with track_id, listened_at and id) as a Wrapped moment. */
export function moment(plays: RawBuilder<unknown>, direction: 'asc' | 'desc') {
  return sql`(select json_build_object('trackTitle', t.title, 'artistName', t.artist, 'timestamp', to_char(p.listened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'trackUri', t.uri)
    from (select track_id, listened_at from ${plays} order by listened_at ${sql.raw(direction)}, id ${sql.raw(direction)} limit 1) p
    cross join lateral ${trackById(sql`p.track_id`)} t)`;
}

/** A UTC midnight: date_bin's origin for binning instants into UTC days. */
const UTC_MIDNIGHT = sql`timestamptz '2000-01-01 00:00:00+00'`;

/** The rows of `counts` (a CTE with play_count) that can make its top `n`: ranked on counts alone, before any catalog join. */
const contenders = (counts: string, n: number) =>
  sql`(select * from ${sql.table(counts)} where play_count >= (select coalesce(min(play_count), 0) from (select play_count from ${sql.table(counts)} order by play_count desc limit ${n}) top))`;

/**
 * Every aggregate of a Wrapped in one statement, from the rollups (src/core/stats/rollups/): the
 * window's plays per track (`played`) give totals and top lists, its plays by local time
 * (`local`) give every local-time statistic, and first plays per track say which artists are
 * new. Top lists rank on counts, then join the catalog for names; ties go to the name (title),
 * then the id. Raw SQL, as statistics are: aggregates over CTEs the builder would only obscure.
 */
function aggregatesQuery(userId: string, window: StatsWindow, timeZone: string) {
  const start = sql`${window.start}::timestamptz`;
  const end = sql`${window.end}::timestamptz`;
  const zone = sql`${timeZone}::text`;
  // First and last play: one step down scrobbles_user_time_idx each.
  const inWindow = sql`scrobbles where user_id = ${userId} and listened_at >= ${start} and listened_at < ${end}`;
  // Each part of the window's listening (listeningParts) with the catalog rows of its tracks: a
  // single period's rows come in track order and merge with a covering index of tracks (migration
  // 0032), the few rows at the edges probe it. A track no longer in the catalog (merged away, its
  // re-pointing still queued) drops out with all its rows, so what is left still adds up per track.
  const { parts, main } = listeningParts(userId, window);
  const joined = parts.map(
    (part, i) => sql`select ${sql.lit(i)}, c.track_id, c.plays, c.measured, c.played_ms, t.artist_id, t.album_id, t.duration, t.genre, f.first_at
      from (${part}) c (track_id, plays, measured, played_ms) join tracks t on t.id = c.track_id
      left join stats_first_plays f on f.user_id = ${userId} and f.track_id = c.track_id`,
  );
  const played =
    joined.length > 0
      ? sql.join(joined, sql` union all `)
      : sql`select 0, null::uuid, 0, 0, 0::bigint, null::uuid, null::uuid, null::int, null::text, null::timestamptz where false`;
  return sql<Aggregates>`
    with pending as materialized (select distinct q.track_id from stats_queue q where ${anyQueued(userId)} and q.user_id = ${userId}),
    played (part, track_id, plays, measured, played_ms, artist_id, album_id, duration, genre, first_at) as materialized (${played}),
    -- Every sum over the window's plays in one pass: per artist (with whether a track of theirs was
    -- first played before the window, see below), per album (with the plays of its tracks that have
    -- no genre of their own, which count under the album's), per track genre, and in all (listening
    -- time: the played time where a client reported it, the track's duration for the other plays).
    -- grouping() tells the sets apart: 3 artist, 5 album, 6 genre, 7 all.
    sums as materialized (
      select grouping(artist_id, album_id, genre) as set, artist_id, album_id, genre, sum(plays)::int as plays,
        coalesce(sum(plays) filter (where genre is null), 0)::int as genreless,
        coalesce(bool_or(first_at < ${start} and track_id not in (select track_id from pending)), false) as settled,
        sum(measured)::int as measured, ${exactSum(sql`played_ms`)} as played_ms, ${exactSum(sql`duration::bigint * (plays - measured)`)} as unmeasured_ms
      from played group by grouping sets ((artist_id), (album_id), (genre), ())
    ),
    local as (${localPlays(userId, window, timeZone)}),
    -- Plays per local day, per local hour of the day and per UTC day, in one pass over the local rows
    -- (one or two per hour of the window); grouping() tells the sets apart: 3 day, 5 hour, 6 UTC day.
    by_local as materialized (
      select grouping(local_at::date, extract(hour from local_at)::int, date_bin('1 day', at, ${UTC_MIDNIGHT})) as set,
        local_at::date as day, extract(hour from local_at)::int as hour, date_bin('1 day', at, ${UTC_MIDNIGHT}) as utc_day, sum(plays)::int as count
      from local group by grouping sets ((local_at::date), (extract(hour from local_at)::int), (date_bin('1 day', at, ${UTC_MIDNIGHT})))
      having sum(plays) > 0
    ),
    -- Plays per track, for the tracks that can make the top five: summing all ~20k of a year's
    -- tracks cost more than the rest of the top lists together. A track without rows outside the
    -- main part (listeningParts) has its main row's plays; of those, no track outside the main
    -- part's 5 + k largest rows (k tracks have rows elsewhere, all summed here) can make the top
    -- five, since at least five tracks among those rows have at least as many plays.
    others as materialized (select track_id, sum(plays) as plays from played where part <> ${sql.lit(main)} group by 1),
    track_counts as materialized (
      select track_id, sum(plays)::int as play_count from (
        select track_id, plays from played where part = ${sql.lit(main)}
          and (plays >= (select coalesce(min(plays), 0) from (select plays from played where part = ${sql.lit(main)} order by plays desc limit 5 + (select count(*) from others)) top)
            or track_id in (select track_id from others))
        union all
        select track_id, plays from others
      ) counted group by 1 having sum(plays) > 0
    ),
    artist_counts as (select artist_id, plays as play_count, settled from sums where set = 3 and artist_id is not null and plays > 0),
    album_counts as (select album_id, plays as play_count from sums where set = 5 and album_id is not null and plays > 0),
    genre_counts as (
      select genre, sum(plays)::int as play_count from (
        select genre, plays from sums where set = 6 and genre is not null
        union all
        select al.genre, s.genreless from sums s join albums al on al.id = s.album_id where s.set = 5 and s.genreless <> 0 and al.genre is not null
      ) g group by 1 having sum(plays) > 0
    ),
    totals as (select coalesce(plays, 0) as scrobbles, coalesce(measured, 0) as measured,
      ((coalesce(played_ms, 0) + coalesce(unmeasured_ms, 0)) / 60000)::int as minutes, (coalesce(played_ms, 0) / 60000)::int as measured_minutes
      from sums where set = 7),
    -- Months from these days, and UTC days by binning instants (arithmetic): no time zone
    -- conversion per row of local, which holds one or two rows per hour of the window.
    local_days as (select day, count from by_local where set = 3),
    streaks as (select count(*)::int as length from (select day - (row_number() over (order by day))::int as run from local_days) d group by run),
    -- Artists heard in the window and played before it: from first plays, except for tracks with
    -- changes still queued, whose first play stats_first_plays may not know yet. Most heard artists
    -- are settled by a track heard in the window (its first play is read beside it in played:
    -- earlier than the window, it is an artist's play before it whether or not that track's plays
    -- in the window add up to more than none); only the others' tracks are looked up in the
    -- catalog. Tracks with queued changes are looked up raw, one index probe per track (a scalar
    -- subquery, never turned into a join over the user's whole history: most of 180-430 ms after a
    -- 100k-play import), and only for heard artists the first plays did not settle (materialized
    -- first, so no probe runs for other tracks): after a bulk import of older plays, few of the
    -- thousands of tracks queued.
    candidates as materialized (select artist_id from artist_counts where not settled),
    earlier_settled as (
      select distinct t.artist_id from stats_first_plays f join tracks t on t.id = f.track_id
        where f.user_id = ${userId} and f.first_at < ${start} and f.track_id not in (select track_id from pending)
          -- The uncorrelated exists is a gate PostgreSQL evaluates once: no scan when every heard artist is settled.
          and t.artist_id in (select artist_id from candidates) and exists (select 1 from candidates)
    ),
    unsettled as (select artist_id from candidates where artist_id not in (select artist_id from earlier_settled)),
    unsettled_tracks as materialized (
      select t.id, t.artist_id from tracks t join pending p on p.track_id = t.id where t.artist_id in (select artist_id from unsettled)
    ),
    earlier_pending as (
      select distinct artist_id from unsettled_tracks u
        where coalesce((select true from scrobbles s where s.user_id = ${userId} and s.track_id = u.id and s.listened_at < ${start} limit 1), false)
    )
    select
      totals.scrobbles as "totalScrobbles",
      totals.minutes as "totalListeningTimeMinutes",
      totals.measured as "measuredScrobbles",
      totals.measured_minutes as "measuredListeningTimeMinutes",
      ${topLists({ artists: contenders('artist_counts', 5), tracks: contenders('track_counts', 5), albums: contenders('album_counts', 6) })},
      ${jsonList(
        sql`json_build_object('genre', genre, 'count', play_count)`,
        sql`select genre, play_count, row_number() over (order by play_count desc, genre) as ordinal from genre_counts order by ordinal limit 10`,
      )} as "topGenres",
      ${jsonList(
        sql`json_build_object('month', extract(month from month)::int, 'count', count)`,
        sql`select m.month, coalesce(c.count, 0) as count, row_number() over (order by m.month) as ordinal
          from generate_series(date_trunc('month', ${start} at time zone ${zone}), ${end} at time zone ${zone} - interval '1 microsecond', interval '1 month') m (month)
          left join (select date_trunc('month', day::timestamp) as month, sum(count)::int as count from local_days group by 1) c on c.month = m.month`,
      )} as "scrobblesPerMonth",
      ${jsonList(
        sql`json_build_object('date', date, 'count', count)`,
        sql`select to_char(utc_day, 'YYYY-MM-DD') as date, count, row_number() over (order by utc_day) as ordinal
          from (select (utc_day at time zone 'UTC')::date as utc_day, count from (
            select utc_day, count from by_local where set = 6) by_instant) days`,
      )} as "scrobblesPerDay",
      (select json_build_object('date', to_char(day, 'YYYY-MM-DD'), 'count', count) from local_days order by count desc, day limit 1) as "mostActiveDay",
      coalesce((select hour from by_local where set = 5 order by count desc, hour limit 1), 0) as "mostActiveHour",
      ((select count(*) from unsettled) - (select count(*) from earlier_pending))::int as "newArtistsCount",
      coalesce((select max(length) from streaks), 0) as "longestStreak",
      ${moment(inWindow, 'asc')} as "firstScrobble",
      ${moment(inWindow, 'desc')} as "lastScrobble"
    from totals`;
}

/** A Wrapped from its window and the aggregates computed over it. */
export function assembleWrapped(window: StatsWindow, row: Aggregates): Wrapped {
  const { mostActiveDay, firstScrobble, lastScrobble, ...aggregates } = row;
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
  return wrappedOf(db, user.id, await statsWindow(db, request.period, request.year, timeZone), timeZone);
}

/** A user's Wrapped over a window; days, months and hours are counted in `timeZone`, scrobblesPerDay in UTC. */
export async function wrappedOf(db: Database, userId: string, window: StatsWindow, timeZone: string): Promise<Wrapped> {
  const { rows } = await withTimeZone(timeZone, () =>
    db.transaction().execute(async (tx) => {
      // No hash joins: the planner would hash a year's ~20k rollup rows and probe them with a scan
      // of the whole of tracks, each row taken apart up to its genre, where merging them with the
      // covering index in track order costs a third. Parallel workers cost more to start than the
      // few thousand rows each part reads (1M plays: 220 -> 140 ms).
      await setForTransaction(tx, { ...NO_JIT, enable_hashjoin: 'off', max_parallel_workers_per_gather: '0' });
      return aggregatesQuery(userId, window, timeZone).execute(tx);
    }),
  );
  return assembleWrapped(window, rows[0]!);
}
