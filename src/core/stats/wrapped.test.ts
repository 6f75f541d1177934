import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory, recordListens, type TestListen } from '../scrobbling/testing.ts';
import { foldAll } from './rollups/fold.ts';
import { rebuildRollups } from './rollups/rebuild.ts';

const WRAPPED = 'app.svc.stats.getWrapped';
const CHART = 'app.svc.charts.getScrobblesChart';

const zeroMonths = Array.from({ length: 12 }, (_, index) => ({ month: index + 1, count: 0 }));
const monthsWith = (counts: Record<number, number>) => zeroMonths.map(({ month }) => ({ month, count: counts[month] ?? 0 }));

const play = (at: string, artist: string, title: string, extra: Partial<TestListen> = {}): TestListen => ({ at, artist, title, ...extra });

describeWithApp('Wrapped and charts', (app) => {
  test('an empty history is all zeros, empty lists, and no first or last scrobble', async () => {
    const { handle } = await listenerWithHistory(app(), 'quiet');
    const result = await app().query(WRAPPED, { did: handle, year: 2024 });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body, {
      year: 2024,
      period: 'year',
      startDate: '2024-01-01T00:00:00Z',
      endDate: '2025-01-01T00:00:00Z',
      totalScrobbles: 0,
      totalListeningTimeMinutes: 0,
      measuredScrobbles: 0,
      measuredListeningTimeMinutes: 0,
      topArtists: [],
      topTracks: [],
      topAlbums: [],
      topGenres: [],
      scrobblesPerMonth: zeroMonths,
      scrobblesPerDay: [],
      mostActiveHour: 0,
      newArtistsCount: 0,
      longestStreak: 0,
    });
  });

  test('one scrobble fills every field', async () => {
    const { did } = await listenerWithHistory(app(), 'single', [
      play('2024-03-05T14:20:00Z', 'Daft Punk', 'Get Lucky', { album: 'Random Access Memories', durationMs: 369_000, genre: 'Disco' }),
    ]);
    const { body } = await app().query(WRAPPED, { did, year: 2024, tz: 'UTC' });
    const artist = await app().ctx.db.selectFrom('artists').selectAll().where('name', '=', 'Daft Punk').executeTakeFirstOrThrow();
    const track = await app().ctx.db.selectFrom('tracks').selectAll().where('title', '=', 'Get Lucky').executeTakeFirstOrThrow();
    const album = await app().ctx.db.selectFrom('albums').selectAll().where('title', '=', 'Random Access Memories').executeTakeFirstOrThrow();
    assert.deepEqual(body, {
      year: 2024,
      period: 'year',
      startDate: '2024-01-01T00:00:00Z',
      endDate: '2025-01-01T00:00:00Z',
      totalScrobbles: 1,
      totalListeningTimeMinutes: 6,
      measuredScrobbles: 0,
      measuredListeningTimeMinutes: 0,
      topArtists: [{ id: artist.id, name: 'Daft Punk', uri: `earshot:artist:${artist.id}`, playCount: 1 }],
      topTracks: [
        {
          id: track.id,
          title: 'Get Lucky',
          artist: 'Daft Punk',
          uri: `earshot:song:${track.id}`,
          artistUri: `earshot:artist:${artist.id}`,
          albumUri: `earshot:album:${album.id}`,
          playCount: 1,
        },
      ],
      topAlbums: [{ id: album.id, title: 'Random Access Memories', artist: 'Daft Punk', uri: `earshot:album:${album.id}`, playCount: 1 }],
      topGenres: [{ genre: 'Disco', count: 1 }],
      scrobblesPerMonth: monthsWith({ 3: 1 }),
      scrobblesPerDay: [{ date: '2024-03-05', count: 1 }],
      mostActiveDay: { date: '2024-03-05', count: 1 },
      mostActiveHour: 14,
      newArtistsCount: 1,
      longestStreak: 1,
      firstScrobble: { trackTitle: 'Get Lucky', artistName: 'Daft Punk', timestamp: '2024-03-05T14:20:00Z', trackUri: `earshot:song:${track.id}` },
      lastScrobble: { trackTitle: 'Get Lucky', artistName: 'Daft Punk', timestamp: '2024-03-05T14:20:00Z', trackUri: `earshot:song:${track.id}` },
    });
  });

  test('calendar years end at local midnight: 2024-12-31T23:30Z is 2025 in Europe/Berlin', async () => {
    const { handle } = await listenerWithHistory(app(), 'berliner', [play('2024-12-31T23:30:00Z', 'Kraftwerk', 'Neonlicht')]);
    const berlin2025 = (await app().query(WRAPPED, { did: handle, year: 2025, tz: 'Europe/Berlin' })).body;
    assert.equal(berlin2025.startDate, '2024-12-31T23:00:00Z');
    assert.equal(berlin2025.endDate, '2025-12-31T23:00:00Z');
    assert.equal(berlin2025.totalScrobbles, 1);
    assert.deepEqual(berlin2025.scrobblesPerMonth, monthsWith({ 1: 1 }));
    assert.deepEqual(berlin2025.scrobblesPerDay, [{ date: '2024-12-31', count: 1 }], 'scrobblesPerDay counts UTC days');
    assert.deepEqual(berlin2025.mostActiveDay, { date: '2025-01-01', count: 1 }, 'mostActiveDay counts local days');
    assert.equal(berlin2025.mostActiveHour, 0);
    assert.equal((await app().query(WRAPPED, { did: handle, year: 2024, tz: 'Europe/Berlin' })).body.totalScrobbles, 0);
    assert.equal((await app().query(WRAPPED, { did: handle, year: 2024, tz: 'UTC' })).body.totalScrobbles, 1);
  });

  test("a play in the UTC year but past the local one's end counts nowhere in it, folded or queued: no artist, song, album or genre of none", async () => {
    const { handle } = await listenerWithHistory(app(), 'lateberliner', [
      play('2024-06-01T10:00:00Z', 'Kraftwerk', 'Autobahn', { album: 'Autobahn', durationMs: 600_000 }),
      play('2024-12-31T23:30:00Z', 'Neu!', 'Hallogallo', { album: 'Neu!', durationMs: 600_000, genre: 'Krautrock' }),
    ]);
    const berlin2024 = async () => (await app().query(WRAPPED, { did: handle, year: 2024, tz: 'Europe/Berlin' })).body;
    for (const state of ['queued', 'folded']) {
      if (state === 'folded') await foldAll(app().ctx.db);
      const body = await berlin2024();
      assert.equal(body.totalScrobbles, 1, state);
      assert.equal(body.totalListeningTimeMinutes, 10, state);
      assert.deepEqual(
        body.topArtists.map((artist: { name: string }) => artist.name),
        ['Kraftwerk'],
        state,
      );
      assert.deepEqual(
        body.topTracks.map((track: { title: string }) => track.title),
        ['Autobahn'],
        state,
      );
      assert.deepEqual(
        body.topAlbums.map((album: { title: string }) => album.title),
        ['Autobahn'],
        state,
      );
      assert.deepEqual(body.topGenres, [], state);
      assert.equal(body.newArtistsCount, 1, state);
    }
  });

  test("top songs: a song the year's rollup row ranks first but the window's edge takes back down lets the sixth in, folded or queued", async () => {
    const plays = (title: string, count: number, at: (i: number) => string) =>
      Array.from({ length: count }, (_, i) => play(at(i), 'Various', title, { album: 'Mixtape' }));
    const midyear = (i: number) => `2024-06-${String(i + 1).padStart(2, '0')}T10:00:00Z`;
    const { handle } = await listenerWithHistory(app(), 'edgy', [
      // 3 plays in Berlin's 2024, 10 more in UTC's 2024 that are Berlin's 2025: 13 in the UTC year's row.
      ...plays('Edge', 3, midyear),
      ...plays('Edge', 10, (i) => `2024-12-31T23:${String(10 + i * 4).padStart(2, '0')}:00Z`),
      ...plays('B', 7, midyear),
      ...plays('C', 6, midyear),
      ...plays('D', 5, midyear),
      ...plays('E', 5, midyear),
      ...plays('F', 4, midyear),
      ...plays('G', 2, midyear),
    ]);
    for (const state of ['queued', 'folded']) {
      if (state === 'folded') await foldAll(app().ctx.db);
      const { body } = await app().query(WRAPPED, { did: handle, year: 2024, tz: 'Europe/Berlin' });
      assert.deepEqual(
        body.topTracks.map((track: { title: string; playCount: number }) => [track.title, track.playCount]),
        [
          ['B', 7],
          ['C', 6],
          ['D', 5],
          ['E', 5],
          ['F', 4],
        ],
        state,
      );
    }
  });

  test("the user's time zone setting is the default, and the current year in it", async () => {
    const { userId, handle } = await listenerWithHistory(app(), 'settled', [play('2024-12-31T23:30:00Z', 'Kraftwerk', 'Neonlicht')]);
    await app().ctx.db.updateTable('users').set({ timezone: 'Europe/Berlin' }).where('id', '=', userId).execute();
    assert.equal((await app().query(WRAPPED, { did: handle, year: 2025 })).body.totalScrobbles, 1);
    const current = (await app().query(WRAPPED, { did: handle })).body;
    const berlinYear = Number(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date()));
    assert.equal(current.year, berlinYear);
  });

  test('top lists rank by plays, ties by name then id, capped at 5 artists, 5 tracks and 6 albums', async () => {
    const listens: TestListen[] = [];
    let minute = 0;
    const at = () => new Date(Date.UTC(2024, 5, 1, 12, minute++)).toISOString();
    const plays = (times: number, artist: string, title: string, album: string) => {
      for (let i = 0; i < times; i++) listens.push(play(at(), artist, title, { album }));
    };
    plays(3, 'Moby', 'Porcelain', 'Play');
    plays(2, 'Zed', 'Zulu', 'Zeta');
    plays(2, 'Abba', 'Waterloo', 'Waterloo');
    for (const name of ['Cher', 'Dido', 'Enya', 'Fergie']) plays(1, name, `${name} song`, `${name} album`);
    const { did } = await listenerWithHistory(app(), 'ranker', listens);
    const body = (await app().query(WRAPPED, { did, year: 2024 })).body;
    assert.deepEqual(
      body.topArtists.map((a: any) => [a.name, a.playCount]),
      [
        ['Moby', 3],
        ['Abba', 2],
        ['Zed', 2],
        ['Cher', 1],
        ['Dido', 1],
      ],
    );
    assert.deepEqual(
      body.topTracks.map((t: any) => [t.title, t.playCount]),
      [
        ['Porcelain', 3],
        ['Waterloo', 2],
        ['Zulu', 2],
        ['Cher song', 1],
        ['Dido song', 1],
      ],
    );
    assert.deepEqual(
      body.topAlbums.map((a: any) => [a.title, a.playCount]),
      [
        ['Play', 3],
        ['Waterloo', 2],
        ['Zeta', 2],
        ['Cher album', 1],
        ['Dido album', 1],
        ['Enya album', 1],
      ],
    );
    assert.equal(body.totalScrobbles, 11);
    assert.equal(body.newArtistsCount, 7);
    assert.deepEqual(body.mostActiveDay, { date: '2024-06-01', count: 11 });
  });

  test('streaks run across month ends; listening time, genres, new artists and first/last over the window', async () => {
    const { did } = await listenerWithHistory(app(), 'streaker', [
      play('2023-05-01T10:00:00Z', 'Old Friend', 'Back Then'),
      play('2024-01-30T10:00:00Z', 'Old Friend', 'Again', { durationMs: 200_000, genre: 'Rock' }),
      play('2024-01-31T10:00:00Z', 'Newcomer', 'Hello', { durationMs: 100_000, genre: 'Pop' }),
      play('2024-01-31T11:00:00Z', 'Newcomer', 'Hello', { durationMs: 100_000, genre: 'Pop' }),
      play('2024-02-01T10:00:00Z', 'Newcomer', 'Hello', { genre: 'Pop' }),
      play('2024-02-02T10:00:00Z', 'Old Friend', 'Again', { genre: 'Rock' }),
      play('2024-02-10T23:00:00Z', 'Third', 'Late', { durationMs: 59_000 }),
    ]);
    const body = (await app().query(WRAPPED, { did, year: 2024 })).body;
    assert.equal(body.longestStreak, 4);
    assert.equal(body.totalScrobbles, 6);
    assert.equal(body.totalListeningTimeMinutes, Math.floor((200_000 * 2 + 100_000 * 3 + 59_000) / 60_000));
    assert.deepEqual(body.topGenres, [
      { genre: 'Pop', count: 3 },
      { genre: 'Rock', count: 2 },
    ]);
    assert.equal(body.newArtistsCount, 2, 'Old Friend was first heard in 2023');
    assert.deepEqual(body.scrobblesPerMonth, monthsWith({ 1: 3, 2: 3 }));
    assert.deepEqual(body.scrobblesPerDay, [
      { date: '2024-01-30', count: 1 },
      { date: '2024-01-31', count: 2 },
      { date: '2024-02-01', count: 1 },
      { date: '2024-02-02', count: 1 },
      { date: '2024-02-10', count: 1 },
    ]);
    assert.deepEqual(body.mostActiveDay, { date: '2024-01-31', count: 2 });
    assert.equal(body.mostActiveHour, 10);
    assert.equal(body.firstScrobble.trackTitle, 'Again');
    assert.equal(body.firstScrobble.timestamp, '2024-01-30T10:00:00Z');
    assert.equal(body.lastScrobble.trackTitle, 'Late');
    assert.equal(body.lastScrobble.artistName, 'Third');
    const tokyo = (await app().query(WRAPPED, { did, year: 2024, tz: 'Asia/Tokyo' })).body;
    assert.equal(tokyo.longestStreak, 4);
    assert.equal(tokyo.mostActiveHour, 19);
    assert.deepEqual(tokyo.mostActiveDay, { date: '2024-01-31', count: 2 });
  });

  test("listening time counts a play's reported played time where there is one, its track's duration elsewhere, and says how much was measured", async () => {
    const { did } = await listenerWithHistory(app(), 'measured', [
      play('2024-04-01T10:00:00Z', 'Mixer', 'Long', { durationMs: 300_000, playedMs: 150_000 }),
      play('2024-04-02T10:00:00Z', 'Mixer', 'Long', { durationMs: 300_000 }),
      play('2024-04-03T10:00:00Z', 'Mixer', 'Short', { playedMs: 45_000 }),
      play('2024-04-04T10:00:00Z', 'Mixer', 'Unknown'),
    ]);
    const listening = async () => {
      const { body } = await app().query(WRAPPED, { did, year: 2024, tz: 'UTC' });
      return [body.totalScrobbles, body.totalListeningTimeMinutes, body.measuredScrobbles, body.measuredListeningTimeMinutes];
    };
    // 150 s and 45 s measured, 300 s from the second play's duration, nothing known of the fourth.
    const expected = [4, Math.floor((150_000 + 300_000 + 45_000) / 60_000), 2, Math.floor((150_000 + 45_000) / 60_000)];
    assert.deepEqual(await listening(), expected, 'as stored, queued or folded');
    await foldAll(app().ctx.db);
    assert.deepEqual(await listening(), expected, 'folded into the rollups');
    await rebuildRollups(app().ctx.db);
    assert.deepEqual(await listening(), expected, 'rebuilt from the plays');
  });

  test('new artists stay exact while older plays or their removal are still queued for the fold', async () => {
    const db = app().ctx.db;
    const listener = await listenerWithHistory(app(), 'backfiller', [
      play('2023-03-01T10:00:00Z', 'Old Friend', 'Back Then'),
      play('2024-03-01T10:00:00Z', 'Old Friend', 'Back Then'),
      play('2024-03-02T10:00:00Z', 'Newcomer', 'Hello'),
      play('2024-03-03T10:00:00Z', 'Stranger', 'Hi'),
    ]);
    const newArtists = async () => (await app().query(WRAPPED, { did: listener.did, year: 2024, tz: 'UTC' })).body.newArtistsCount;
    await foldAll(db);
    assert.equal(await newArtists(), 2, 'folded: Old Friend was heard in 2023');
    // An import of older plays (queued, not folded): Newcomer was heard before 2024 after all.
    await recordListens(app(), listener, [play('2022-06-01T10:00:00Z', 'Newcomer', 'Hello'), play('2022-06-02T10:00:00Z', 'Newcomer', 'Other')]);
    assert.equal(await newArtists(), 1, 'an older play still queued counts');
    // The only earlier play of Old Friend deleted (its removal queued, its first play still in the rollup).
    await sql`delete from scrobbles where user_id = ${listener.userId} and listened_at < '2024-01-01' and track_id in (select t.id from tracks t join artists a on a.id = t.artist_id where a.name = 'Old Friend')`.execute(
      db,
    );
    assert.equal(await newArtists(), 2, 'a removal still queued counts');
    await foldAll(db);
    assert.equal(await newArtists(), 2, 'folded again');
  });

  test('an artist heard before the window only through another of their songs is not new, folded or queued', async () => {
    const db = app().ctx.db;
    const listener = await listenerWithHistory(app(), 'deepcuts', [
      play('2023-03-01T10:00:00Z', 'Old Friend', 'Back Then'),
      play('2024-03-01T10:00:00Z', 'Old Friend', 'New Single'),
      play('2024-03-02T10:00:00Z', 'Newcomer', 'Hello'),
    ]);
    const newArtists = async () => (await app().query(WRAPPED, { did: listener.did, year: 2024, tz: 'UTC' })).body.newArtistsCount;
    assert.equal(await newArtists(), 1, 'as stored: Old Friend was heard in 2023, through another song');
    await foldAll(db);
    assert.equal(await newArtists(), 1, 'folded');
    // Newcomer's other song, played before 2024, arrives late (queued): Newcomer is not new either.
    await recordListens(app(), listener, [play('2023-06-01T10:00:00Z', 'Newcomer', 'Before')]);
    assert.equal(await newArtists(), 0, 'an older play of another song still queued counts');
    await foldAll(db);
    assert.equal(await newArtists(), 0, 'folded again');
  });

  test('rolling windows end now', async () => {
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const { did } = await listenerWithHistory(app(), 'roller', [
      play(ago(1), 'Recent', 'Yesterday'),
      play(ago(10), 'Recent', 'Last week'),
      play(ago(100), 'Older', 'Spring'),
    ]);
    const totals: Record<string, number> = {};
    for (const period of ['last7days', 'last30days', 'last90days', 'last365days']) {
      const { status, body } = await app().query(WRAPPED, { did, period });
      assert.equal(status, 200);
      assert.equal(body.period, period);
      const spanDays = (Date.parse(body.endDate) - Date.parse(body.startDate)) / day;
      assert.equal(spanDays, Number(period.replace(/\D/g, '')));
      assert.ok(Date.parse(body.endDate) >= Date.now() - 1000 && Date.parse(body.endDate) <= Date.now() + 2000);
      totals[period] = body.totalScrobbles;
      const months = body.scrobblesPerMonth.reduce((sum: number, month: { count: number }) => sum + month.count, 0);
      assert.equal(months, body.totalScrobbles, 'every month the window touches is listed');
    }
    assert.deepEqual(totals, { last7days: 1, last30days: 2, last90days: 2, last365days: 3 });
    assert.ok([12, 13].includes((await app().query(WRAPPED, { did, period: 'last365days' })).body.scrobblesPerMonth.length));
  });

  test("the spec's source system's periods (week, 2weeks, month, 3months) are rolling windows of 7, 14, 30 and 90 days", async () => {
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const { did } = await listenerWithHistory(app(), 'source-periods', [
      play(ago(1), 'Recent', 'Yesterday'),
      play(ago(10), 'Recent', 'Last week'),
      play(ago(20), 'Recent', 'Three weeks ago'),
      play(ago(60), 'Older', 'Two months ago'),
      play(ago(100), 'Older', 'Spring'),
    ]);
    const expected = { week: [7, 1], '2weeks': [14, 2], month: [30, 3], '3months': [90, 4] };
    for (const [period, [days, plays]] of Object.entries(expected)) {
      const { status, body } = await app().query(WRAPPED, { did, period });
      assert.equal(status, 200, period);
      assert.equal(body.period, period);
      assert.equal((Date.parse(body.endDate) - Date.parse(body.startDate)) / day, days, period);
      assert.equal(body.totalScrobbles, plays, period);
    }
    const month = await app().query(WRAPPED, { did, period: 'month' });
    const last30days = await app().query(WRAPPED, { did, period: 'last30days' });
    const figures = ({ totalScrobbles, topArtists, topTracks, scrobblesPerMonth }: any) => ({ totalScrobbles, topArtists, topTracks, scrobblesPerMonth });
    assert.deepEqual(figures(month.body), figures(last30days.body), 'month is last30days by another name');
  });

  test('bad parameters are 400 InvalidRequest; an unknown user is 404', async () => {
    await listenerWithHistory(app(), 'valid');
    const cases: [Record<string, string | number>, number, string?][] = [
      [{ did: 'not a handle!' }, 400, 'actor must be a DID or handle'],
      [{ did: 'did:bad' }, 400, 'actor must be a DID or handle'],
      [{ did: 'nobody-here' }, 404],
      [{ did: 'valid', year: 1999 }, 400],
      [{ did: 'valid', year: 'soon' }, 400],
      [{ did: 'valid', period: 'last2days' }, 400],
      [{ did: 'valid', tz: 'Mars/Olympus' }, 400],
      [{ did: 'valid', tz: '+01:00' }, 400],
      [{}, 400],
    ];
    for (const [params, status, message] of cases) {
      const result = await app().query(WRAPPED, params);
      assert.equal(result.status, status, JSON.stringify(params));
      assert.equal(result.body.error, status === 404 ? 'NotFound' : 'InvalidRequest');
      if (message) assert.equal(result.body.message, message);
    }
  });

  test('scrobbles chart: plays per local day, for one user or everyone, within a date range', async () => {
    const first = await listenerWithHistory(app(), 'charter', [
      play('2001-01-01T10:00:00Z', 'A', 'One'),
      play('2001-01-01T23:30:00Z', 'A', 'Two'),
      play('2001-01-03T10:00:00Z', 'A', 'Three'),
    ]);
    await listenerWithHistory(app(), 'charter2', [play('2001-01-03T12:00:00Z', 'B', 'Four')]);
    const range = { startDate: '2001-01-01', endDate: '2001-01-04' };
    assert.deepEqual((await app().query(CHART, { did: first.did, ...range })).body, {
      chart: [
        { date: '2001-01-01', count: 2 },
        { date: '2001-01-03', count: 1 },
      ],
    });
    assert.deepEqual((await app().query(CHART, { ...range, tz: 'Europe/Berlin' })).body.chart, [
      { date: '2001-01-01', count: 1 },
      { date: '2001-01-02', count: 1 },
      { date: '2001-01-03', count: 2 },
    ]);
    assert.deepEqual((await app().query(CHART, { did: 'charter', startDate: '2001-01-02', endDate: '2001-01-03' })).body.chart, []);
    assert.equal((await app().query(CHART, { startDate: '2001-01-03', endDate: '2001-01-01' })).status, 400);
    assert.equal((await app().query(CHART, { startDate: 'tomorrow' })).status, 400);
    assert.equal((await app().query(CHART, { did: 'ghost' })).status, 404);
  });
});
