import { sql } from 'kysely';
import { actorPlays } from '../../core/catalog/actor-top.ts';
import { NO_JIT, withSettings, type Database } from '../../toolkit/db/index.ts';
import { ALL_TIME, localPlays, type PlaysWindow } from '../../core/stats/rollups/reads.ts';
import { activitySegments, rangeWindow, WEEKDAYS, type RangeWindow, type StatsRange } from './stats-ranges.ts';

/**
 * ListenBrainz's user and sitewide statistics (/1/stats/user/{user}/…, /1/stats/sitewide/…), live
 * from the same rollups as Wrapped and the actor lists: top lists from actorPlays, activity from
 * localPlays in UTC. Each answer is null when there are no plays in the range, which the route
 * sends as ListenBrainz's 204.
 */

/**
 * Whose plays: one user's, or the whole instance's. Sitewide counts every account: Earshot has no
 * private listening history (every user's listens are public through /1/user/{user}/listens).
 */
export type Listeners = { id: string; handle: string } | 'sitewide';
const userIdOf = (listeners: Listeners) => (listeners === 'sitewide' ? null : listeners.id);

export type Entity = 'artists' | 'releases' | 'recordings';
/** The total each entity list reports, under ListenBrainz's name. */
export const TOTAL_KEY: Record<Entity, string> = { artists: 'total_artist_count', releases: 'total_release_count', recordings: 'total_recording_count' };

export interface Page {
  count: number;
  offset: number;
}

type Row = Record<string, unknown> & { listen_count: number; total: number };

const mbids = (mbid: string | null) => (mbid ? [mbid] : []);
/** Optional fields are left out when unknown, as ListenBrainz leaves them out. */
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));

/** Ranked as Wrapped ranks its top lists: by plays, then the name, then the id. */
const total = sql<number>`(count(*) over ())::int`.as('total');

function artistRows(db: Database, userId: string | null, window: PlaysWindow, page: Page) {
  return db
    .selectFrom('artists as ar')
    .innerJoin(actorPlays(userId, window, 'artist'), 'ap.subject_id', 'ar.id')
    .select(['ar.name', 'ar.mbid', 'ap.play_count', total])
    .orderBy('ap.play_count', 'desc')
    .orderBy('ar.name')
    .orderBy('ar.id')
    .limit(page.count)
    .offset(page.offset)
    .execute()
    .then((rows) => rows.map((row) => ({ artist_mbids: mbids(row.mbid), artist_name: row.name, listen_count: row.play_count, total: row.total })));
}

function releaseRows(db: Database, userId: string | null, window: PlaysWindow, page: Page) {
  return db
    .selectFrom('albums as al')
    .innerJoin(actorPlays(userId, window, 'album'), 'ap.subject_id', 'al.id')
    .leftJoin('artists as ar', 'ar.id', 'al.artist_id')
    .select(['al.title', 'al.artist', 'al.mbid', 'ar.mbid as artist_mbid', 'ap.play_count', total])
    .orderBy('ap.play_count', 'desc')
    .orderBy('al.title')
    .orderBy('al.id')
    .limit(page.count)
    .offset(page.offset)
    .execute()
    .then((rows) =>
      rows.map((row) => ({
        artist_mbids: mbids(row.artist_mbid),
        artist_name: row.artist,
        listen_count: row.play_count,
        ...present({ release_mbid: row.mbid }),
        release_name: row.title,
        total: row.total,
      })),
    );
}

function recordingRows(db: Database, userId: string | null, window: PlaysWindow, page: Page) {
  return db
    .selectFrom('tracks as t')
    .innerJoin(actorPlays(userId, window, 'track'), 'ap.subject_id', 't.id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .select([
      't.id',
      't.title',
      't.artist',
      't.mbid',
      sql<string | null>`coalesce(t.album, al.title)`.as('release_name'),
      'al.mbid as release_mbid',
      'ar.mbid as artist_mbid',
      'ap.play_count',
      total,
    ])
    .orderBy('ap.play_count', 'desc')
    .orderBy('t.title')
    .orderBy('t.id')
    .limit(page.count)
    .offset(page.offset)
    .execute()
    .then((rows) =>
      rows.map((row) => ({
        artist_mbids: mbids(row.artist_mbid),
        artist_name: row.artist,
        listen_count: row.play_count,
        // Our track id, which every listen we list gives as its recording_msid: feedback takes it back.
        recording_msid: row.id,
        ...present({ recording_mbid: row.mbid, release_mbid: row.release_mbid, release_name: row.release_name }),
        track_name: row.title,
        total: row.total,
      })),
    );
}

const ROWS = { artists: artistRows, releases: releaseRows, recordings: recordingRows };

const nowSeconds = () => Math.floor(Date.now() / 1000);

function header(listeners: Listeners, range: Pick<RangeWindow, 'range' | 'fromTs' | 'toTs'>) {
  // Computed live, so always just updated.
  const span = { range: range.range, from_ts: range.fromTs, to_ts: range.toTs, last_updated: nowSeconds() };
  return listeners === 'sitewide' ? span : { user_id: listeners.handle, ...span };
}

/** A page of the top artists, releases or recordings in ListenBrainz's payload, or null without plays. */
export async function entityStats(db: Database, listeners: Listeners, entity: Entity, range: StatsRange, page: Page) {
  const window = rangeWindow(range);
  const userId = userIdOf(listeners);
  const rows: Row[] = await ROWS[entity](db, userId, window.window, page);
  // Past the last page no row carries the total: the first page's first row does.
  const first = rows.length > 0 || page.offset === 0 ? rows : await ROWS[entity](db, userId, window.window, { count: 1, offset: 0 });
  const totalCount = first[0]?.total ?? 0;
  if (totalCount === 0) return null;
  const list = rows.map(({ total: _total, ...entry }) => entry);
  // As ListenBrainz does: a user's list gives how many entries it holds, the sitewide one how many were asked for.
  const count = listeners === 'sitewide' ? page.count : list.length;
  return { payload: { ...header(listeners, window), [entity]: list, count, offset: page.offset, [TOTAL_KEY[entity]]: totalCount } };
}

/** The window's plays per UTC day (or year), keyed by the period's start in unix seconds. */
async function playsPer(db: Database, userId: string | null, window: PlaysWindow, unit: 'day' | 'year'): Promise<Map<number, number>> {
  const { rows } = await withSettings(db, NO_JIT, (tx) =>
    sql<{ period: number; plays: number }>`
      select extract(epoch from date_trunc(${unit}, local_at))::float8 as period, sum(plays)::int as plays
      from (${localPlays(userId, window, 'UTC')}) p group by 1 having sum(plays) > 0`.execute(tx),
  );
  return new Map(rows.map((row) => [row.period, row.plays]));
}

interface Activity {
  from_ts: number;
  to_ts: number;
  time_range: string;
  listen_count: number;
}

/** Each segment's plays, summed from whole UTC days (every segment starts and ends at midnight). */
async function segmentedActivity(db: Database, userId: string | null, range: Exclude<StatsRange, 'all_time'>): Promise<Activity[]> {
  const segments = activitySegments(range);
  const perDay = await playsPer(db, userId, { start: segments[0]!.start, end: segments.at(-1)!.end }, 'day');
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  return segments.map(({ start, end, label }) => {
    let plays = 0;
    for (const [day, count] of perDay) if (day >= seconds(start) && day < seconds(end)) plays += count;
    return { from_ts: seconds(start), to_ts: seconds(end) - 1, time_range: label, listen_count: plays };
  });
}

/** all_time: the years with plays, as ListenBrainz lists them. */
async function yearlyActivity(db: Database, userId: string | null): Promise<Activity[]> {
  const perYear = await playsPer(db, userId, ALL_TIME, 'year');
  return [...perYear.keys()]
    .sort((a, b) => a - b)
    .map((start) => {
      const year = new Date(start * 1000).getUTCFullYear();
      return { from_ts: start, to_ts: Date.UTC(year + 1, 0, 1) / 1000 - 1, time_range: String(year), listen_count: perYear.get(start)! };
    });
}

/** Listening activity: plays per segment over the range and the one before it; null without plays. */
export async function listeningActivity(db: Database, listeners: Listeners, range: StatsRange) {
  const userId = userIdOf(listeners);
  const activity = range === 'all_time' ? await yearlyActivity(db, userId) : await segmentedActivity(db, userId, range);
  if (!activity.some((segment) => segment.listen_count > 0)) return null;
  const span = range === 'all_time' ? rangeWindow(range) : { range, fromTs: activity[0]!.from_ts, toTs: activity.at(-1)!.to_ts + 1 };
  return { payload: { ...header(listeners, span), listening_activity: activity } };
}

/** Daily activity: plays per weekday and UTC hour in the range, every hour listed; null without plays. */
export async function dailyActivity(db: Database, user: { id: string; handle: string }, range: StatsRange) {
  const window = rangeWindow(range);
  const { rows } = await withSettings(db, NO_JIT, (tx) =>
    sql<{ weekday: number; hour: number; plays: number }>`
      select extract(isodow from local_at)::int as weekday, extract(hour from local_at)::int as hour, sum(plays)::int as plays
      from (${localPlays(user.id, window.window, 'UTC')}) p group by 1, 2 having sum(plays) > 0`.execute(tx),
  );
  if (rows.length === 0) return null;
  const plays = new Map(rows.map((row) => [`${row.weekday}:${row.hour}`, row.plays]));
  const days = WEEKDAYS.map((day, i) => [day, Array.from({ length: 24 }, (_, hour) => ({ hour, listen_count: plays.get(`${i + 1}:${hour}`) ?? 0 }))]);
  return { payload: { ...header(user, window), daily_activity: Object.fromEntries(days) } };
}
