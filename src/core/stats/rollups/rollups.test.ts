/**
 * The rollups against the raw history: every statistic read from rollups must equal the same
 * statistic computed from the raw plays alone, whatever was folded, for any zone and window,
 * through inserts (late, out of order, duplicated), deletions and corrections.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql, type RawBuilder } from 'kysely';
import { openDatabase, type Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { scrobblesPerDay } from '../chart.ts';
import { listeningClock } from '../clock.ts';
import type { StatsWindow } from '../window.ts';
import { wrappedFromHistory } from '../wrapped-from-history.ts';
import { wrappedOf } from '../wrapped.ts';
import { foldAll, foldBatch } from './fold.ts';
import { totalBatch } from './totals-ahead.ts';
import { LOCAL_DAY, LOCAL_HOUR, localTimeCounts, UTC_DAY } from './local-days.ts';
import { ALL_TIME, trackPlays, utcDayOf } from './reads.ts';
import { rebuildRollups } from './rebuild.ts';

// Zones offset by :30 and :45, with and without DST, both hemispheres.
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Pacific/Chatham',
  'Australia/Adelaide',
];
const FIRST = Date.UTC(2022, 0, 1);
const SPAN = 4 * 365 * 86_400_000;

/** A small catalog: 8 artists, 12 albums (some with a genre), 40 tracks (some without album, duration or genre). */
async function seedCatalog(db: Database): Promise<string[]> {
  await sql`insert into artists (name, name_key) select 'Artist ' || i, 'artist ' || i from generate_series(1, 8) i`.execute(db);
  await sql`insert into albums (title, title_key, artist, artist_id, genre)
    select 'Album ' || i, 'album ' || i, a.name, a.id, case when i % 3 = 0 then null else 'Genre ' || (i % 4) end
    from generate_series(1, 12) i join artists a on a.name = 'Artist ' || (1 + i % 8)`.execute(db);
  await sql`insert into tracks (title, title_key, artist, artist_id, album, album_id, duration, genre)
    select 'Track ' || i, 'track ' || i, a.name, a.id, al.title, al.id, case when i % 7 = 0 then null else 100000 + i * 997 end,
      case when i % 5 = 0 then 'Track genre' end
    from generate_series(1, 40) i join artists a on a.name = 'Artist ' || (1 + i % 8)
    left join albums al on al.title = 'Album ' || (1 + i % 12) and i % 6 <> 0`.execute(db);
  const rows = await db.selectFrom('tracks').select('id').orderBy('title').execute();
  return rows.map((row) => row.id);
}

async function createUser(db: Database, handle: string): Promise<string> {
  const row = await db
    .insertInto('users')
    .values({ did: `did:plc:${handle}`, handle })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A played time for some plays (a client said how long), none for the others. */
const playedTime = ({ int }: ReturnType<typeof seededPicker>) => (int(3) === 0 ? null : int(400_000));

/**
 * One random change to the history of `users`: plays arriving (late, out of order, some already
 * there, some with a played time), plays deleted, re-timed, re-pointed or given another played time.
 */
async function randomChange(db: Database, random: ReturnType<typeof seededPicker>, users: string[], tracks: string[]): Promise<void> {
  const { int, pick } = random;
  const kind = pick(['insert', 'insert', 'insert', 'delete', 'retime', 'repoint', 'replay', 'catalog']);
  if (kind === 'catalog') return randomCatalogEdit(db, random, tracks);
  if (kind === 'insert') {
    const plays = Array.from({ length: 1 + int(60) }, () => ({
      user_id: pick(users),
      track_id: pick(tracks),
      listened_at: new Date(FIRST + int(SPAN)),
      played_ms: playedTime(random),
    }));
    // Clustered plays (same quarter hour, same day) as well as spread ones.
    const cluster = new Date(FIRST + int(SPAN));
    plays.push(
      ...Array.from({ length: int(20) }, () => ({
        user_id: pick(users),
        track_id: pick(tracks),
        listened_at: new Date(cluster.getTime() + int(3_600_000)),
        played_ms: playedTime(random),
      })),
    );
    await db
      .insertInto('scrobbles')
      .values(plays)
      .onConflict((oc) => oc.doNothing())
      .execute();
    return;
  }
  const victims = await sql<{ id: string }>`select id from scrobbles order by md5(id::text || ${int(1e9)}::text) limit ${1 + int(15)}`.execute(db);
  const ids = victims.rows.map((row) => row.id);
  if (ids.length === 0) return;
  if (kind === 'delete') await db.deleteFrom('scrobbles').where('id', 'in', ids).execute();
  else if (kind === 'replay')
    await db
      .updateTable('scrobbles')
      .set({ played_ms: playedTime(random) })
      .where('id', 'in', ids)
      .execute();
  else if (kind === 'retime') {
    await sql`update scrobbles set listened_at = listened_at + ${int(200) - 100} * interval '7 hours 13 minutes' where id in (${sql.join(ids)})`
      .execute(db)
      .catch((error: { code?: string }) => {
        if (error.code !== '23505') throw error; // Moved onto an existing play: the database refuses it, as it should.
      });
  } else {
    await db
      .updateTable('scrobbles')
      .set({ track_id: pick(tracks) })
      .where('id', '=', ids[0]!)
      .execute()
      .catch((error: { code?: string }) => {
        if (error.code !== '23505') throw error;
      });
  }
}

/**
 * One random catalog edit that moves a track's plays between groups (artist, album, genre, the
 * duration its plays without a played time count): a song or album edited, or a song merged into
 * another (its plays re-pointed, the track deleted and dropped from `tracks`).
 */
async function randomCatalogEdit(db: Database, random: ReturnType<typeof seededPicker>, tracks: string[]): Promise<void> {
  const { int, pick } = random;
  const track = pick(tracks);
  const edit = pick(['artist', 'album', 'genre', 'duration', 'album genre', 'merge']);
  if (edit === 'artist') {
    await sql`update tracks set artist_id = (select id from artists order by md5(id::text || ${int(1e9)}::text) limit 1) where id = ${track}`.execute(db);
  } else if (edit === 'album') {
    await sql`update tracks set album_id = case when ${int(4)} = 0 then null else (select id from albums order by md5(id::text || ${int(1e9)}::text) limit 1) end where id = ${track}`.execute(
      db,
    );
  } else if (edit === 'genre') {
    await sql`update tracks set genre = ${pick([null, 'Track genre', 'Other genre'])} where id = ${track}`.execute(db);
  } else if (edit === 'duration') {
    await sql`update tracks set duration = ${pick([null, 100_000 + int(300_000)])} where id = ${track}`.execute(db);
  } else if (edit === 'album genre') {
    await sql`update albums set genre = ${pick([null, 'Genre 1', 'Album genre'])} where id = (select album_id from tracks where id = ${track})`.execute(db);
  } else if (tracks.length > 10) {
    const into = pick(tracks.filter((id) => id !== track));
    // The merged song's plays that the other already has at the same instant are one play twice.
    await sql`delete from scrobbles s where track_id = ${track} and exists (select 1 from scrobbles o where o.user_id = s.user_id and o.track_id = ${into} and o.listened_at = s.listened_at)`.execute(
      db,
    );
    await sql`update scrobbles set track_id = ${into} where track_id = ${track}`.execute(db);
    await sql`delete from tracks where id = ${track}`.execute(db);
    tracks.splice(tracks.indexOf(track), 1);
  }
}

/** A random window: a calendar year in a zone, a rolling window ending at some second, or any range. */
async function randomWindow(db: Database, random: ReturnType<typeof seededPicker>, zone: string): Promise<StatsWindow> {
  const { int, pick } = random;
  const shape = pick(['year', 'rolling', 'range']);
  if (shape === 'year') {
    const year = 2022 + int(4);
    const { rows } = await sql<{
      start: Date;
      end: Date;
    }>`select make_timestamptz(${year}, 1, 1, 0, 0, 0, ${zone}) as start, make_timestamptz(${year + 1}, 1, 1, 0, 0, 0, ${zone}) as end`.execute(db);
    return { period: 'year', year, ...rows[0]! };
  }
  const end = new Date(FIRST + int(SPAN) + int(1000) * 1000);
  const days = shape === 'rolling' ? pick([7, 30, 90, 365]) : 1 + int(900);
  const start = new Date(end.getTime() - days * 86_400_000 - (shape === 'range' ? int(86_400) * 1000 : 0));
  return { period: 'last30days', year: end.getUTCFullYear(), start, end };
}

/** The plays of one user or, with null, everyone's. */
const playsOf = (userId: string | null) => (userId === null ? sql`true` : sql`user_id = ${userId}`);

/** Per-day and per-hour statistics and the all-time top lists, straight from the raw plays. */
async function rawTimeStats(db: Database, userId: string | null, zone: string) {
  const { rows: days } = await sql<{ date: string; count: number }>`
    select to_char((listened_at at time zone ${zone})::date, 'YYYY-MM-DD') as date, count(*)::int as count from scrobbles where ${playsOf(userId)} group by 1 order by 1`.execute(
    db,
  );
  const { rows: clock } = await sql<{ weekday: number; hour: number; count: number }>`
    select extract(isodow from listened_at at time zone ${zone})::int - 1 as weekday, extract(hour from listened_at at time zone ${zone})::int as hour, count(*)::int as count
    from scrobbles where ${playsOf(userId)} group by 1, 2 order by 1, 2`.execute(db);
  return { days, clock };
}

async function rawTrackCounts(db: Database, userId: string | null) {
  const { rows } = await sql<{
    track_id: string;
    plays: number;
  }>`select track_id, count(*)::int as plays from scrobbles where ${playsOf(userId)} group by 1 order by 1`.execute(db);
  return rows;
}

async function rollupTrackCounts(db: Database, userId: string | null) {
  const { rows } = await sql<{ track_id: string; plays: number }>`select * from (${trackPlays(userId, ALL_TIME)}) c order by 1`.execute(db);
  return rows;
}

/** The rollup tables, in a fixed order, to compare two ways of filling them. */
async function rollupTables(db: Database) {
  const counts = await sql`select user_id, grain, period_start, track_id, plays, measured, played_ms from stats_track_counts order by 1, 2, 3, 4`.execute(db);
  const hours = await sql`select * from stats_hours order by user_id, hour`.execute(db);
  const groupCounts = await sql`select * from stats_group_counts order by user_id, grain, period_start, dim, key`.execute(db);
  const days = await sql`select * from stats_days order by user_id, day`.execute(db);
  return { counts: counts.rows, hours: hours.rows, groupCounts: groupCounts.rows, days: days.rows };
}

for (const backend of testBackends()) {
  describe(`statistics from rollups [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    let users: string[];
    let tracks: string[];
    before(async () => {
      ({ db, close } = await backend.open());
      tracks = await seedCatalog(db);
      users = [await createUser(db, 'ana'), await createUser(db, 'ben'), await createUser(db, 'cy')];
    });
    after(() => close());

    test('every statistic equals its raw-history computation, folded or not, for any zone and window', async () => {
      let nonEmpty = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const random = seededPicker(seed);
        for (let change = 0; change < 3; change++) await randomChange(db, random, users, tracks);
        // Fold all, some or none of the queue, with or without the totals ahead of the fold: reads must not care.
        const folding = random.pick(['all', 'some', 'none', 'totals', 'totals and some']);
        if (folding === 'all') await foldAll(db);
        if (folding.startsWith('totals')) await totalBatch(db);
        if (folding.endsWith('some')) await foldBatch(db);
        const user = random.pick(users);
        const zone = random.pick(ZONES);
        const window = await randomWindow(db, random, zone);
        const context = `seed ${seed}, ${zone}, [${window.start.toISOString()}, ${window.end.toISOString()}), fold ${folding}`;
        const expected = await wrappedFromHistory(db, user, window, zone);
        assert.deepEqual(await wrappedOf(db, user, window, zone), expected, context);
        if (expected.totalScrobbles > 0) nonEmpty++;
        const raw = await rawTimeStats(db, user, zone);
        assert.deepEqual(await scrobblesPerDay(db, { userId: user, window: ALL_TIME, timeZone: zone }), raw.days, `chart: ${context}`);
        assert.deepEqual(await listeningClock(db, { userId: user, window: ALL_TIME, timeZone: zone }), raw.clock, `clock: ${context}`);
        assert.deepEqual(await rollupTrackCounts(db, user), await rawTrackCounts(db, user), `all-time counts: ${context}`);
        assert.deepEqual(await rollupTrackCounts(db, null), await rawTrackCounts(db, null), `everyone's all-time counts: ${context}`);
        assert.deepEqual(
          await scrobblesPerDay(db, { window: ALL_TIME, timeZone: zone }),
          (await rawTimeStats(db, null, zone)).days,
          `everyone's chart: ${context}`,
        );
      }
      assert.ok(nonEmpty >= 20, `only ${nonEmpty} windows had plays`);
    });

    test('rebuilding from the raw plays gives exactly the rollups the fold kept up', async () => {
      const random = seededPicker(99);
      for (let change = 0; change < 30; change++) {
        await randomChange(db, random, users, tracks);
        if (change % 3 === 0) await totalBatch(db);
        if (change % 4 === 0) await foldBatch(db);
      }
      await foldAll(db);
      const incremental = await rollupTables(db);
      assert.ok(incremental.counts.length > 0);
      await rebuildRollups(db);
      assert.deepEqual(await rollupTables(db), incremental);
      const { rows } = await sql<{ queued: number }>`select count(*)::int as queued from stats_queue`.execute(db);
      assert.equal(rows[0]!.queued, 0);
    });

    test('two processes folding one queue side by side fold every change once', { skip: backend.name !== 'postgres' && 'PGlite has one process' }, async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      const other = await openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema: rows[0]!.schema });
      try {
        const random = seededPicker(7);
        for (let change = 0; change < 40; change++) await randomChange(db, random, users, tracks);
        const [mine, theirs] = await Promise.all([foldAll(db), foldAll(other)]);
        assert.ok(mine + theirs > 0);
        const folded = await rollupTables(db);
        await rebuildRollups(db);
        assert.deepEqual(folded, await rollupTables(db));
      } finally {
        await other.destroy();
      }
    });

    test('an hour whose offset changes in its middle is counted quarter by quarter, folded or not', async () => {
      // St John's springs forward at 05:30 UTC (01:59 NST is followed by 03:00 NDT), Lord Howe at
      // 15:30 UTC (+10:30 to +11): each hour's first plays are in one local hour, its last two hours on.
      const user = await createUser(db, 'midhour');
      const cases = [
        { zone: 'America/St_Johns', times: ['2025-03-09T05:10:00Z', '2025-03-09T05:40:00Z', '2025-03-09T05:50:00Z'], year: 2025 },
        { zone: 'Australia/Lord_Howe', times: ['2025-10-05T15:05:00Z', '2025-10-05T15:35:00Z', '2025-10-05T15:55:00Z'], year: 2025 },
      ];
      await db
        .insertInto('scrobbles')
        .values(cases.flatMap(({ times }) => times.map((at, i) => ({ user_id: user, track_id: tracks[i]!, listened_at: new Date(at) }))))
        .execute();
      for (const state of ['queued', 'folded']) {
        if (state === 'folded') await foldAll(db);
        for (const { zone, year } of cases) {
          const raw = await rawTimeStats(db, user, zone);
          assert.deepEqual(await listeningClock(db, { userId: user, window: ALL_TIME, timeZone: zone }), raw.clock, `clock: ${zone}, ${state}`);
          assert.deepEqual(await scrobblesPerDay(db, { userId: user, window: ALL_TIME, timeZone: zone }), raw.days, `chart: ${zone}, ${state}`);
          const window = await sql<{ start: Date; end: Date }>`
            select make_timestamptz(${year}, 1, 1, 0, 0, 0, ${zone}) as start, make_timestamptz(${year + 1}, 1, 1, 0, 0, 0, ${zone}) as end`.execute(db);
          const yearWindow = { period: 'year' as const, year, ...window.rows[0]! };
          assert.deepEqual(await wrappedOf(db, user, yearWindow, zone), await wrappedFromHistory(db, user, yearWindow, zone), `Wrapped: ${zone}, ${state}`);
        }
      }
    });

    test('plays at the turn of a local day or hour count on the right side of it, read from the day rows', async () => {
      const user = await createUser(db, 'turns');
      // Around each zone's local midnight and the UTC midnight of 11 June 2025: a minute before, at,
      // a minute after, and the quarter's last minute and the next quarter's first.
      const zones = ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns'];
      await sql`insert into scrobbles (user_id, track_id, listened_at)
        select ${user}, ${tracks[0]!}, midnight + m * interval '1 minute'
        from unnest(${zones}::text[]) z (zone) cross join lateral (values (make_timestamptz(2025, 6, 11, 0, 0, 0, z.zone))) t (midnight)
        cross join unnest(array[-16, -15, -1, 0, 1, 14, 15]) m
        on conflict do nothing`.execute(db);
      await foldAll(db);
      for (const zone of zones) {
        const window = (
          await sql<{
            start: Date;
            end: Date;
          }>`select make_timestamptz(2025, 1, 1, 0, 0, 0, ${zone}) as start, make_timestamptz(2026, 1, 1, 0, 0, 0, ${zone}) as end`.execute(db)
        ).rows[0]!;
        const counted = (set: number) =>
          sql<{ key: string; plays: number }>`select coalesce(day::text, hour::text, utc_day::text) as key, plays
            from (${localTimeCounts(user, window, zone)}) c where set = ${sql.lit(set)} and plays <> 0 order by 1`.execute(db);
        const raw = (key: RawBuilder<unknown>) =>
          sql<{ key: string; plays: number }>`select ${key} as key, count(*)::int as plays from scrobbles
            where user_id = ${user} and listened_at >= ${window.start} and listened_at < ${window.end} group by 1 order by 1`.execute(db);
        const local = sql`listened_at at time zone ${zone}::text`;
        assert.deepEqual((await counted(LOCAL_DAY)).rows, (await raw(sql`(${local})::date::text`)).rows, `local days: ${zone}`);
        assert.deepEqual((await counted(LOCAL_HOUR)).rows, (await raw(sql`extract(hour from ${local})::int::text`)).rows, `local hours: ${zone}`);
        assert.deepEqual((await counted(UTC_DAY)).rows, (await raw(sql`${utcDayOf(sql`listened_at`)}::text`)).rows, `UTC days: ${zone}`);
      }
    });

    test("a deleted account's rollups and queued changes go with it", async () => {
      const gone = await createUser(db, 'gone');
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[0]!, listened_at: new Date('2024-02-02T02:02:00Z') })
        .execute();
      await foldAll(db);
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[1]!, listened_at: new Date('2024-02-03T02:02:00Z') })
        .execute();
      await db
        .insertInto('scrobbles')
        .values({ user_id: users[0]!, track_id: tracks[0]!, listened_at: new Date('2024-02-04T02:02:00Z') })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await db.deleteFrom('users').where('id', '=', gone).execute();
      // The account's removals are still queued, its rollups already gone: they take nothing off everyone's counts.
      assert.deepEqual(await rollupTrackCounts(db, null), await rawTrackCounts(db, null));
      assert.deepEqual(await scrobblesPerDay(db, { window: ALL_TIME, timeZone: 'UTC' }), (await rawTimeStats(db, null, 'UTC')).days);
      await foldAll(db);
      for (const table of ['stats_track_counts', 'stats_hours', 'stats_days', 'stats_group_counts'] as const) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where user_id = ${gone}`.execute(db);
        assert.equal(rows[0]!.n, 0, table);
      }
    });
  });
}

test('plays still queued when the embedded database closes are folded after it opens again', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-rollups-'));
  try {
    const open = () => openDatabase({ kind: 'pglite', dataDir: dir });
    let db = await open();
    const [track] = await seedCatalog(db);
    const user = await createUser(db, 'restart');
    const plays = Array.from({ length: 50 }, (_, i) => ({ user_id: user, track_id: track!, listened_at: new Date(Date.UTC(2025, 0, 1) + i * 3_600_000) }));
    await db.insertInto('scrobbles').values(plays).execute();
    await db.destroy();
    db = await open();
    assert.equal(await foldAll(db), 50);
    const { rows } = await sql<{ plays: number }>`select plays from stats_track_counts where user_id = ${user} and grain = 'y'`.execute(db);
    assert.deepEqual(rows, [{ plays: 50 }]);
    await db.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
