import { sql, type RawBuilder } from 'kysely';
import { NO_JIT, type Database } from '../../toolkit/db/index.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import { userFromActorParam } from '../auth/index.ts';
import { songArt } from '../song-art.ts';
import { LOCAL_DAY, LOCAL_HOUR, localTimeCounts, UTC_DAY } from './rollups/local-days.ts';
import { ALL_TIME, exactSum, trackParts } from './rollups/reads.ts';
import { windowPieces } from './rollups/pieces.ts';
import { edgeTracks, groupedTracks, isRegrouping, readsMonthsOrDays, windowGroups } from './rollups/window-groups.ts';
import type { Wrapped } from './schemas.ts';
import { checkTimeZone, chooseTimeZone, withTimeZone } from './time-zone.ts';
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

/** The rows of `counts` (a CTE with play_count) that can make its top `n`: ranked on counts alone, before any catalog join. */
const contenders = (counts: string, n: number) =>
  sql`(select * from ${sql.table(counts)} where play_count >= (select coalesce(min(play_count), 0) from (select play_count from ${sql.table(counts)} order by play_count desc limit ${n}) top))`;

/**
 * The CTEs `others` and `track_counts` (track_id, play_count) of a window with whole years: plays
 * per track for the tracks that can make the top five. Summing all ~20k of a year's tracks cost
 * more than the rest of the top lists together. A track without rows outside the main part
 * (trackParts) has its main row's plays; of those, no track outside the main part's 5 + k largest
 * rows (k tracks have rows elsewhere, all summed here) can make the top five, since at least five
 * tracks among those rows have at least as many plays.
 */
function topSongCandidates(userId: string, window: StatsWindow) {
  const { main, others } = trackParts(userId, window);
  const noTracks = sql`select null::uuid, 0 where false`;
  return sql`
    others as materialized (select track_id, sum(plays) as plays from (${sql.join(others.length > 0 ? others : [noTracks], sql` union all `)}) o (track_id, plays) group by 1),
    track_counts as materialized (
      select track_id, sum(plays)::int as play_count from (
        ${
          main
            ? sql`select track_id, plays from (${main}) m (track_id, plays)
                where plays >= (select coalesce(min(plays), 0) from (select plays from (${main}) m (track_id, plays) order by plays desc limit 5 + (select count(*) from others)) top)
              union
              select m.track_id, m.plays from others o cross join lateral (select * from (${main}) m (track_id, plays) where m.track_id = o.track_id limit 1) m
              union all`
            : sql``
        }
        select track_id, plays from others
      ) counted group by 1 having sum(plays) > 0
    ),`;
}

/**
 * Every aggregate of a Wrapped in one statement, from the rollups (src/core/stats/rollups/): the
 * window's plays per artist, album and genre and in all (`sums`, from windowGroups) give totals
 * and top lists, its plays per track the top songs, its plays by local time (`local`) every
 * local-time statistic, and the plays per artist before it which artists are new. Top lists rank
 * on counts, then join the catalog for names; ties go to the name (title), then the id. Raw SQL,
 * as statistics are: aggregates over CTEs the builder would only obscure.
 */
function aggregatesQuery(userId: string, window: StatsWindow, timeZone: string, regrouping: boolean) {
  const start = sql`${window.start}::timestamptz`;
  const end = sql`${window.end}::timestamptz`;
  const zone = sql`${timeZone}::text`;
  // First and last play: one step down scrobbles_user_time_idx each.
  const inWindow = sql`scrobbles where user_id = ${userId} and listened_at >= ${start} and listened_at < ${end}`;
  // Without whole years, the top songs rank the window's plays per track: its months' rows, and the
  // rest (the days and hours at its edges, the queue) read once for the sums and the top songs.
  const edges = windowPieces(window.start, window.end).some((piece) => piece.source === 'y') ? undefined : edgeTracks(userId, window);
  const yearStart = new Date(Date.UTC(window.start.getUTCFullYear(), 0, 1));
  const before = { start: ALL_TIME.start, end: yearStart };
  return sql<Aggregates>`
    with ${edges ? sql`edges as materialized (${edges}),` : sql``}
    sums as materialized (
      select dim, key, sum(plays)::int as plays, sum(measured)::int as measured,
        ${exactSum(sql`played_ms`)} as played_ms, ${exactSum(sql`unmeasured_ms`)} as unmeasured_ms
      from (${windowGroups(userId, window, { regrouping, ...(edges ? { tracks: sql`select * from edges` } : {}) })}) grouped group by 1, 2
    ),
    artist_counts as (select key::uuid as artist_id, plays as play_count from sums where dim = 'a' and plays > 0),
    album_counts as (select key::uuid as album_id, plays as play_count from sums where dim = 'l' and plays > 0),
    genre_counts as (select key as genre, plays as play_count from sums where dim = 'g' and plays > 0),
    -- Listening time: the played time where a client reported it, the track's duration for the other plays.
    totals as (select coalesce(t.plays, 0) as scrobbles, coalesce(t.measured, 0) as measured,
      ((coalesce(t.played_ms, 0) + coalesce(t.unmeasured_ms, 0)) / 60000)::int as minutes, (coalesce(t.played_ms, 0) / 60000)::int as measured_minutes
      from (select) one left join sums t on t.dim = 't'),
    ${
      edges
        ? sql`track_counts as materialized (
            select track_id, sum(plays)::int as play_count
            from (${sql.join([...groupedTracks(userId, window), sql`select track_id, plays from edges`], sql` union all `)}) c (track_id, plays)
            group by 1 having sum(plays) > 0
          ),`
        : topSongCandidates(userId, window)
    }
    -- An artist heard in the window is new unless their plays before it add up to any. First the
    -- UTC years before the window's (their group counts), counting of the changes still queued only
    -- plays leaving: an artist with plays left is settled whatever else is queued, and after a bulk
    -- import of older plays (~100k queued plays arriving) most are, without summing the import.
    -- Then, for the artists those leave, those sums with the plays queued to arrive added; then
    -- the rest of the time before the window (up to 6 months of per-track rows) for those still
    -- undecided.
    heard as materialized (select artist_id from artist_counts),
    kept_before as materialized (
      select key, sum(plays) as plays from (${windowGroups(userId, before, { only: 'a', artists: sql`select artist_id from heard`, queued: 'removals', regrouping })}) earlier
      group by 1
    ),
    unkept as materialized (select artist_id from heard where artist_id::text not in (select key from kept_before where plays > 0)),
    heard_before as (
      select key from (
        select key, plays from kept_before where key in (select artist_id::text from unkept)
        union all
        select key, plays from (${windowGroups(userId, before, { only: 'a', artists: sql`select artist_id from unkept`, queued: 'arrivals', rollups: false, regrouping })}) arriving
      ) earlier
      where exists (select 1 from unkept) group by 1 having sum(plays) > 0
    ),
    undecided as materialized (select artist_id from unkept where artist_id::text not in (select key from heard_before)),
    heard_since as (
      select key from (${windowGroups(userId, { start: yearStart, end: window.start }, { only: 'a', artists: sql`select artist_id from undecided`, regrouping })}) earlier
      where exists (select 1 from undecided) group by 1 having sum(plays) > 0
    ),
    -- Plays per local day, per local hour of the day and per UTC day (local-days.ts).
    by_local as materialized (${localTimeCounts(userId, window, timeZone)}),
    local_days as (select day, plays as count from by_local where set = ${sql.lit(LOCAL_DAY)} and plays > 0),
    local_hours as (select hour, plays as count from by_local where set = ${sql.lit(LOCAL_HOUR)} and plays > 0),
    streaks as (select count(*)::int as length from (select day - (row_number() over (order by day))::int as run from local_days) d group by run)
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
            select utc_day, plays from by_local where set = ${sql.lit(UTC_DAY)} and plays > 0) by_instant (utc_day, count)) days`,
      )} as "scrobblesPerDay",
      (select json_build_object('date', to_char(day, 'YYYY-MM-DD'), 'count', count) from local_days order by count desc, day limit 1) as "mostActiveDay",
      coalesce((select hour from local_hours order by count desc, hour limit 1), 0) as "mostActiveHour",
      (select count(*) from undecided where artist_id::text not in (select key from heard_since))::int as "newArtistsCount",
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
  // With a zone asked for, the window does not wait for the user (on PostgreSQL, two connections at once).
  const asked = request.timeZone === undefined ? undefined : checkTimeZone(request.timeZone);
  const windowIn = (timeZone: string) => statsWindow(db, request.period, request.year, timeZone);
  const [user, askedWindow] = await Promise.all([userFromActorParam(db, request.actor), asked === undefined ? undefined : windowIn(asked)]);
  const timeZone = asked ?? chooseTimeZone(undefined, user.timezone);
  return wrappedOf(db, user.id, askedWindow ?? (await windowIn(timeZone)), timeZone);
}

/** A user's Wrapped over a window; days, months and hours are counted in `timeZone`, scrobblesPerDay in UTC. */
export async function wrappedOf(db: Database, userId: string, window: StatsWindow, timeZone: string): Promise<Wrapped> {
  const { rows } = await withTimeZone(timeZone, () =>
    // Repeatable read: the statement is built for what isRegrouping saw, so it runs in that snapshot.
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        // Parallel workers cost more to start than the few thousand rows each part reads (1M plays:
        // 220 -> 140 ms). Nested loops only where the window's per-track rows are few (readsMonthsOrDays).
        const regrouping = await isRegrouping(tx, {
          ...NO_JIT,
          max_parallel_workers_per_gather: '0',
          ...(readsMonthsOrDays(window) ? { enable_nestloop: 'off' } : {}),
        });
        return aggregatesQuery(userId, window, timeZone, regrouping).execute(tx);
      }),
  );
  return assembleWrapped(window, rows[0]!);
}
