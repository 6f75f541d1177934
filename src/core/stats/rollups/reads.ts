import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { onePeriod, quarterSpan, windowPieces, type Piece } from './pieces.ts';
import { anyQueued, anyUntotalled } from './queue-marks.ts';

/**
 * What statistics read instead of the raw history: a window's plays per track, and its plays by
 * local time, from the rollups plus the changes still queued for the fold (so a play counts the
 * moment it is stored) plus raw plays at the window's edges. Raw SQL: unions of range scans,
 * one per piece with its bounds as constants so each is an index range scan. The queue, which has
 * no index, is scanned only when the user has rows in it that may fall in the window (anyQueued,
 * queue-marks.ts).
 */
export interface PlaysWindow {
  start: Date;
  end: Date;
}

/** All time: wider than any play. */
export const ALL_TIME: PlaysWindow = { start: new Date(Date.UTC(1000, 0, 1)), end: new Date(Date.UTC(9999, 0, 1)) };

/** Whether `window` takes in every play: all-time reads use the all-time rollups. */
export const isAllTime = (window: PlaysWindow) => window.start <= ALL_TIME.start && window.end >= ALL_TIME.end;

export const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const within = (column: RawBuilder<unknown>, from: Date, to: Date) => sql`${column} >= ${at(from)} and ${column} < ${at(to)}`;

/**
 * The periods of a rollup piece as a condition on `column` (a period start): one period by
 * equality, which gives its rows in the rollup's key order (track or group), else a range.
 */
export function periodsOf(column: RawBuilder<unknown>, piece: Piece) {
  const period = onePeriod(piece);
  return period ? sql`${column} = ${at(period)}` : within(column, piece.from, piece.to);
}

/** A UTC midnight: date_bin's origin for binning instants into UTC days. */
const UTC_MIDNIGHT = sql`timestamptz '2000-01-01 00:00:00+00'`;

/** The UTC day an instant is in, by arithmetic (no time zone conversion). */
export const utcDayOf = (instant: RawBuilder<unknown>) => sql`date_bin('1 day', ${instant}, ${UTC_MIDNIGHT})`;

/** Seconds `zone` is ahead of UTC at `instant`: a UTC day's offset holds when it is the same at both its midnights. */
export const offsetSeconds = (instant: RawBuilder<unknown>, zone: RawBuilder<unknown>) =>
  sql`extract(epoch from (${instant} at time zone ${zone}) - (${instant} at time zone 'UTC'))::int`;

/**
 * The rows of one user or, with `userId` null, of every account there is: not every user_id, since
 * the queue keeps a deleted account's removals until the fold drops them, and those would take plays
 * off everyone's counts whose rollups already went with the account. As a list of ids, the rollups'
 * keys (user_id first) are still read as one index range scan per user.
 */
const ofUser = (userId: string | null, column: string) =>
  userId === null ? sql`${sql.ref(column)} = any(array(select id from users))` : sql`${sql.ref(column)} = ${userId}`;

/**
 * What a read sums per track: the plays alone, or (`listening`) also how many of them have a played
 * time and its sum (measured, played_ms; migration 0027), each as an expression over a row of
 * scrobbles, stats_track_counts or stats_queue, times a factor.
 */
type Measure = 'plays' | 'listening';
type Source = 'raw' | 'rollup' | 'queue';

function measured(measure: Measure, source: Source, factor: RawBuilder<unknown>): RawBuilder<unknown> {
  const plays = source === 'raw' ? factor : source === 'rollup' ? sql`plays * ${factor}` : sql`delta * (${factor})`;
  if (measure === 'plays') return plays;
  if (source === 'rollup') return sql`${plays}, measured * ${factor}, played_ms * ${factor}`;
  return sql`${plays}, (played_ms is not null)::int * ${plays}, coalesce(played_ms, 0)::bigint * ${plays}`;
}

/** A rollup's own columns, for a piece of weight 1: a reader can then rank by plays along an index. */
const rollupColumns = (measure: Measure) => (measure === 'plays' ? sql`plays` : sql`plays, measured, played_ms`);

/** One piece's plays per track, times its weight. */
function piecePlays(userId: string | null, piece: Piece, measure: Measure) {
  const weight = sql.lit(piece.weight);
  if (piece.source === 'raw') {
    return sql`select track_id, ${measured(measure, 'raw', weight)} from scrobbles where ${ofUser(userId, 'user_id')} and ${within(sql`listened_at`, piece.from, piece.to)}`;
  }
  return sql`select track_id, ${piece.weight === 1 ? rollupColumns(measure) : measured(measure, 'rollup', weight)} from stats_track_counts
      where ${ofUser(userId, 'user_id')} and grain = ${sql.lit(piece.source)} and ${periodsOf(sql`period_start`, piece)}`;
}

/**
 * The changes still queued in the rollup pieces, each weighted as the pieces covering it are, in
 * one scan of the unindexed queue (a scan per piece cost a read several whole scans).
 */
function queuedPlays(userId: string | null, pieces: Piece[], measure: Measure, only: QueuedChanges = 'all') {
  const rollup = pieces.filter((piece) => piece.source !== 'raw');
  if (rollup.length === 0) return [];
  const weight = sql.join(
    rollup.map((piece) => sql`case when ${within(sql`listened_at`, piece.from, piece.to)} then ${sql.lit(piece.weight)} else 0 end`),
    sql` + `,
  );
  const from = new Date(Math.min(...rollup.map((piece) => piece.from.getTime())));
  const to = new Date(Math.max(...rollup.map((piece) => piece.to.getTime())));
  return [
    sql`select track_id, ${measured(measure, 'queue', weight)} from stats_queue where ${anyQueued(userId, { from, to }, only === 'removals')} and ${ofUser(userId, 'user_id')} and ${within(sql`listened_at`, from, to)}${QUEUED_FILTERS[only]}`,
  ];
}

/**
 * Which queued changes a read takes: all of them, only plays leaving (a sum without the plays
 * arriving is a lower bound), or only plays arriving (what such a bound left out).
 */
export type QueuedChanges = 'all' | 'removals' | 'arrivals';
const QUEUED_FILTERS: Record<QueuedChanges, RawBuilder<unknown>> = { all: sql``, removals: sql` and delta < 0`, arrivals: sql` and delta > 0` };

/** Each piece's rows and the queued ones, as one relation of (track_id, plays[, measured, played_ms]). */
function pieceBranches(userId: string | null, window: PlaysWindow, measure: Measure) {
  const pieces = windowPieces(window.start, window.end);
  return [...pieces.map((piece) => piecePlays(userId, piece, measure)), ...queuedPlays(userId, pieces, measure)];
}

/** (track_id, plays) for each track `userId` (or, with null, anyone) played in the window, plays > 0; all time from the totals. */
export function trackPlays(userId: string | null, window: PlaysWindow): RawBuilder<{ track_id: string; plays: number }> {
  if (isAllTime(window)) return allTimeTrackPlays(userId);
  const branches = pieceBranches(userId, window, 'plays');
  if (branches.length === 0) return sql`select null::uuid as track_id, 0 as plays where false`;
  return sql`select track_id, sum(plays)::int as plays from (${sql.join(branches, sql` union all `)}) counted (track_id, plays) group by track_id having sum(plays) > 0`;
}

/**
 * The sum of a bigint column as a bigint, added up in float8: exact while every partial sum stays
 * below 2^53 (285,000 years of milliseconds), and several times cheaper than sum(bigint), which
 * adds in numeric (a year's Wrapped sums 20k tracks' played times this way).
 */
export const exactSum = (column: RawBuilder<unknown>) => sql`sum(${column}::float8)::bigint`;

/**
 * A user's plays in a window per track as relations of (track_id, plays), not summed across them:
 * `main`, the rows of the one whole period of the largest grain the window takes in (a calendar
 * year's year row: most of its rows, at most one per track, in track order), or null when there is
 * none; `others`, the rest of its pieces and the changes queued in it, summed per track (after a
 * bulk import, ~100k queued rows of a few thousand tracks). A track's rows add up to its plays in
 * the window. For readers that need only some tracks' plays (Wrapped's top songs).
 */
export function trackParts(userId: string, window: PlaysWindow): { main: RawBuilder<TrackRow> | null; others: RawBuilder<TrackRow>[] } {
  const pieces = windowPieces(window.start, window.end);
  const ranks = pieces.map((piece) => (onePeriod(piece) ? GRAIN_RANK.indexOf(piece.source) : -1));
  const largest = Math.max(-1, ...ranks);
  const main = largest === -1 ? -1 : ranks.indexOf(largest);
  return {
    main: main === -1 ? null : piecePlays(userId, pieces[main]!, 'plays').$castTo<TrackRow>(),
    others: [
      ...pieces.filter((_, i) => i !== main).map((piece) => piecePlays(userId, piece, 'plays').$castTo<TrackRow>()),
      ...queuedPlays(userId, pieces, 'plays').map(
        (queued) => sql<TrackRow>`select track_id, sum(plays)::int from (${queued}) queued (track_id, plays) group by 1`,
      ),
    ],
  };
}

type TrackRow = { track_id: string; plays: number };

/**
 * A user's plays per track in the pieces of a window that `read` takes, as relations of (track_id,
 * plays), not summed; the changes queued in them are not included (a reader adds them with the rest).
 */
export function pieceTracks(userId: string, window: PlaysWindow, read: (piece: Piece) => boolean): RawBuilder<TrackRow>[] {
  return windowPieces(window.start, window.end)
    .filter(read)
    .map((piece) => piecePlays(userId, piece, 'plays').$castTo<TrackRow>());
}

/** Rollup grains, smallest first. */
const GRAIN_RANK: Piece['source'][] = ['d', 'm', 'y'];

/**
 * A user's plays in a window per track with their listening time, as relations of (track_id, plays,
 * measured, played_ms), not summed: one per piece `read` takes and one of the changes queued in the
 * window (`queued` of them). Their rows add up per track to its plays in the window, how many of
 * them have a played time and its sum in ms (a bigint).
 */
export function listeningParts(userId: string, window: PlaysWindow, read: (piece: Piece) => boolean, queued: QueuedChanges = 'all') {
  const pieces = windowPieces(window.start, window.end);
  return {
    pieces,
    parts: [
      ...pieces.filter(read).map((piece) => piecePlays(userId, piece, 'listening').$castTo<ListeningRow>()),
      ...queuedPlays(userId, pieces, 'listening', queued).map((rows) => rows.$castTo<ListeningRow>()),
    ],
  };
}

type ListeningRow = { track_id: string; plays: number; measured: number; played_ms: string };

/**
 * The changes still queued of one user or, with null, everyone, by the rule above, that the
 * all-time totals do not count yet (the step ahead of the fold counts most of a bulk import there
 * within seconds: totals-ahead.ts), as (user_id, track_id, delta); `tracks` is a condition on the
 * column track_id. For the all-time rollups' readers: allTimeTrackPlays, totals.ts, groups.ts.
 */
export const queuedRows = (userId: string | null, tracks: RawBuilder<SqlBool> = sql<SqlBool>`true`) =>
  sql<{
    user_id: string;
    track_id: string;
    delta: number;
  }>`select user_id, track_id, delta from stats_queue where ${anyUntotalled(userId)} and ${ofUser(userId, 'user_id')} and not totalled and ${tracks}`;

/** The changes still queued of `userId` (or, with null, anyone), by the rule above, summed per track as (track_id, delta). */
export const queuedPerTrack = (userId: string | null) => sql`select track_id, sum(delta)::int as delta from (${queuedRows(userId)}) q group by 1`;

/** Everyone's changes still queued, by the rule above, as (user_id, track_id, delta): for readers that sum them per query rather than per row (totals.ts). */
export const queuedChanges = () => queuedRows(null);

/**
 * (track_id, plays) of all time: the stats_track_totals rollup (migration 0021) plus the changes
 * still queued, by the rule above, for one user or, with null, everyone (the totals need no filter
 * for that: an account's rows go with it); a (user, track) may have a totals row and queued
 * changes (see totals.ts). Each is summed per track before they meet: after a bulk import the queue
 * holds ~100k rows of a few thousand tracks, and adding them to the totals row by row (a union of
 * both, then one aggregate) cost a profile's counts 100 ms against 68 on PGlite.
 */
function allTimeTrackPlays(userId: string | null): RawBuilder<{ track_id: string; plays: number }> {
  // One totals row per (user, track): a single user's need no summing.
  const totals =
    userId === null
      ? sql`select track_id, sum(plays) as plays from stats_track_totals group by 1`
      : sql`select track_id, plays from stats_track_totals where user_id = ${userId}`;
  return sql`select coalesce(t.track_id, q.track_id) as track_id, (coalesce(t.plays, 0) + coalesce(q.plays, 0))::int as plays
    from (${totals}) t full join (${queuedPerTrack(userId)}) q (track_id, plays) on q.track_id = t.track_id
    where coalesce(t.plays, 0) + coalesce(q.plays, 0) > 0`;
}

/**
 * (month, track_id, plays) for the whole UTC months in [from, to) (both month starts) of `userId`
 * or, with null, anyone: the monthly rollup plus the changes still queued, by the rule trackPlays
 * follows; `month` is 'YYYY-MM'. Whole months need no raw plays at the edges.
 */
export function monthlyTrackPlays(userId: string | null, from: Date, to: Date): RawBuilder<{ month: string; track_id: string; plays: number }> {
  return sql`select to_char(month at time zone 'UTC', 'YYYY-MM') as month, track_id, sum(plays)::int as plays from (
      select period_start, track_id, plays from stats_track_counts
        where ${ofUser(userId, 'user_id')} and grain = 'm' and ${within(sql`period_start`, from, to)}
      union all
      select date_trunc('month', listened_at, 'UTC'), track_id, delta from stats_queue
        where ${anyQueued(userId, { from, to })} and ${ofUser(userId, 'user_id')} and ${within(sql`listened_at`, from, to)}
    ) counted (month, track_id, plays) group by counted.month, track_id having sum(plays) > 0`;
}

const HOUR_MS = 3_600_000;

/** The hourly rollup's rows (hour, q0, q1, q2, q3) in [lo, hi), of the users `ofUser` (a condition on h.user_id) takes. */
export const hourlyRows = (ofUser: RawBuilder<unknown>, lo: RawBuilder<unknown>, hi: RawBuilder<unknown>) =>
  sql`select h.hour, h.q0, h.q1, h.q2, h.q3 from stats_hours h where ${ofUser} and h.hour >= ${lo} and h.hour < ${hi}`;

/** (at, local_at, plays, later) for each quarter of `hours` (rows of the hourly rollup) in [from, to), each converted on its own; later 0. */
export function quarterRows(hours: RawBuilder<unknown>, from: Date, to: Date, zone: RawBuilder<unknown>) {
  const quarter = sql`interval '15 minutes'`;
  return sql`select h.hour + v.i * ${quarter}, (h.hour + v.i * ${quarter}) at time zone ${zone}, v.plays, 0
    from (${hours}) h cross join lateral (values (0, h.q0), (1, h.q1), (2, h.q2), (3, h.q3)) v (i, plays)
    where h.hour + v.i * ${quarter} >= ${at(from)} and h.hour + v.i * ${quarter} < ${at(to)}`;
}

/**
 * The hourly rollup in local time. An hour wholly in the window is one row, its plays before the
 * local hour turns (at :15, :30 or :45 in zones so offset) and `later` those after, which are in
 * the next local hour: one time zone conversion per hour. The hours at the window's edges, and
 * every hour of a UTC day the zone's offset changes in, are their quarters, each converted on its
 * own. A day's change is found by the offsets at its two midnights, which is exact because no zone
 * changes its offset twice within a day (in tzdata since 1900 the closest changes are four days
 * apart); a change at the next midnight makes a day's hours quarters for nothing, never wrong.
 */
function hourRows(ofUser: RawBuilder<unknown>, from: Date, to: Date, zone: RawBuilder<unknown>) {
  const [first, last] = [Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS, Math.floor(to.getTime() / HOUR_MS) * HOUR_MS];
  const hoursIn = (lo: RawBuilder<unknown>, hi: RawBuilder<unknown>) => hourlyRows(ofUser, lo, hi);
  const quarters = (hours: RawBuilder<unknown>) => quarterRows(hours, from, to, zone);
  const start = at(new Date(Math.floor(from.getTime() / HOUR_MS) * HOUR_MS));
  if (first >= last) return quarters(hoursIn(start, at(to)));
  const [whole, wholeEnd] = [at(new Date(first)), at(new Date(last))];
  return sql`
    with shifts as materialized (
      -- The days from the first hour with plays to the last, not the window's (all time is 9,000 years).
      select d from (select min(h.hour) as first, max(h.hour) as last from (${hoursIn(whole, wholeEnd)}) h) played,
        generate_series(${utcDayOf(sql`played.first`)}, played.last, interval '1 day') d
      where ${offsetSeconds(sql`d`, zone)} <> ${offsetSeconds(sql`(d + interval '1 day')`, zone)}
    )
    select hour as at, local_start as local_at,
      case turn when 0 then q0 + q1 + q2 + q3 when 1 then q0 when 2 then q0 + q1 else q0 + q1 + q2 end as plays,
      case turn when 0 then 0 when 1 then q1 + q2 + q3 when 2 then q2 + q3 else q3 end as later
    from (
      select h.*, ((60 - extract(minute from h.local_start)::int) % 60) / 15 as turn
      -- offset 0 keeps the subquery whole, so the conversion runs once per hour rather than once per use.
      from (select h.*, h.hour at time zone ${zone} as local_start from (${hoursIn(whole, wholeEnd)}) h
        where ${utcDayOf(sql`h.hour`)} not in (select d from shifts) offset 0) h
    ) hours
    union all
    ${quarters(hoursIn(start, whole))}
    union all
    ${quarters(hoursIn(wholeEnd, at(to)))}
    union all
    ${quarters(sql`select h.* from shifts s cross join lateral (${hoursIn(sql`greatest(s.d, ${whole})`, sql`least(s.d + interval '1 day', ${wholeEnd})`)}) h`)}`;
}

/** What localHourPlays reads the hourly rollup's part of a window, [from, to) on quarter hours, with: rows of (at, local_at, plays, later). */
export type HourlyReader = (from: Date, to: Date, zone: RawBuilder<unknown>) => RawBuilder<unknown>;

/**
 * (at, local_at, plays, later) for the window's plays by local time in `zone`: `at` the instant a
 * row's plays start (an hour or quarter from the hourly rollup, or a raw or queued play's own time),
 * `local_at` its wall-clock time; `later` plays, of an hour split where the local hour turns, are
 * in the local hour after local_at's (and on the next local day when that is 23h), in the same UTC
 * hour as `at`. For one user or, with `userId` null, everyone. Exact in every zone whose offsets and
 * changes fall on quarter hours, which all current ones do. For readers that group by local day or
 * hour (Wrapped): one row per hour of the window, not two.
 */
export function localHourPlays(
  userId: string | null,
  window: PlaysWindow,
  zone: string,
  hourly: HourlyReader = (from, to, tz) => hourRows(ofUser(userId, 'h.user_id'), from, to, tz),
): RawBuilder<{ at: Date; local_at: Date; plays: number; later: number }> {
  const span = quarterSpan(window.start, window.end);
  const tz = sql`${zone}::text`;
  const plays = (table: string, delta: RawBuilder<unknown>, from: Date, to: Date) =>
    sql`select listened_at, listened_at at time zone ${tz}, ${delta}, 0 from ${sql.table(table)} where ${ofUser(userId, 'user_id')} and ${within(sql`listened_at`, from, to)}`;
  const queued = (from: Date, to: Date) => sql`select * from (${plays('stats_queue', sql`delta`, from, to)}) queued where ${anyQueued(userId, { from, to })}`;
  const branches = [
    ...(span.from < span.to ? [sql`select * from (${hourly(span.from, span.to, tz)}) hour_rows`, queued(span.from, span.to)] : []),
    ...span.raw.map((piece) => plays('scrobbles', sql`1`, piece.from, piece.to)),
  ];
  if (branches.length === 0) return sql`select null::timestamptz as at, null::timestamp as local_at, 0 as plays, 0 as later where false`;
  return sql`select * from (${sql.join(branches, sql` union all `)}) counted (at, local_at, plays, later)`;
}

/**
 * (at, local_at, plays) for the window's plays by local time in `zone`: localHourPlays with each
 * hour's later plays a row of their own, at the local hour's turn.
 */
export function localPlays(userId: string | null, window: PlaysWindow, zone: string): RawBuilder<{ at: Date; local_at: Date; plays: number }> {
  const turn = sql`date_trunc('hour', local_at) + interval '1 hour'`;
  return sql`with hours as materialized (${localHourPlays(userId, window, zone)})
    select at, local_at, plays from hours
    union all
    select at + (${turn} - local_at), ${turn}, later from hours where later <> 0`;
}
