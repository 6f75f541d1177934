import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RATE_LIMITS } from '../../toolkit/limits-config.ts';
import { describeWithApp } from '../../app/testing.ts';
import { rangeWindow } from './stats-ranges.ts';
import { lb, lbAs, lbUser, play } from './listenbrainz-testing.ts';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const seconds = (date: Date) => date.getTime() / 1000;

describeWithApp('ListenBrainz statistics', (app) => {
  test('artists, releases and recordings in ListenBrainz’s payload, ranked, paged, with totals', async () => {
    const user = await lbUser(app(), 'lb-stats-top');
    await play(app(), user, [
      ...[0, 1, 2].map((i) => ({ artist: 'Air', title: 'La femme d’argent', album: 'Moon Safari', at: at(`2020-03-0${i + 1}T10:00:00Z`) })),
      ...[0, 1].map((i) => ({ artist: 'Beak', title: 'Yatton', album: 'Beak>', at: at(`2020-04-0${i + 1}T10:00:00Z`) })),
      { artist: 'Can', title: 'Vitamin C', album: 'Ege Bamyasi', at: at('2021-01-01T10:00:00Z') },
    ]);
    const artists = await lb(app(), 'GET', `/stats/user/${user.handle}/artists`);
    assert.equal(artists.status, 200);
    const { artists: list, last_updated, to_ts, ...header } = artists.body.payload;
    assert.deepEqual(header, {
      user_id: user.handle,
      range: 'all_time',
      from_ts: seconds(at('2002-01-01T00:00:00Z')),
      count: 3,
      offset: 0,
      total_artist_count: 3,
    });
    assert.ok(Math.abs(last_updated - Date.now() / 1000) < 3600 && to_ts >= last_updated - 1);
    assert.deepEqual(list, [
      { artist_mbids: [], artist_name: 'Air', listen_count: 3 },
      { artist_mbids: [], artist_name: 'Beak', listen_count: 2 },
      { artist_mbids: [], artist_name: 'Can', listen_count: 1 },
    ]);

    const page = await lb(app(), 'GET', `/stats/user/${user.handle}/artists?count=1&offset=1`);
    assert.deepEqual(
      [page.body.payload.artists.map((artist: { artist_name: string }) => artist.artist_name), page.body.payload.count, page.body.payload.offset],
      [['Beak'], 1, 1],
    );
    const past = await lb(app(), 'GET', `/stats/user/${user.handle}/artists?offset=10`);
    assert.deepEqual([past.status, past.body.payload.artists, past.body.payload.total_artist_count], [200, [], 3]);

    const releases = await lb(app(), 'GET', `/stats/user/${user.handle}/releases?count=1`);
    assert.deepEqual(releases.body.payload.releases, [{ artist_mbids: [], artist_name: 'Air', listen_count: 3, release_name: 'Moon Safari' }]);
    assert.equal(releases.body.payload.total_release_count, 3);

    const recordings = await lb(app(), 'GET', `/stats/user/${user.handle}/recordings?count=1`);
    const [top] = recordings.body.payload.recordings;
    assert.deepEqual(top, {
      artist_mbids: [],
      artist_name: 'Air',
      listen_count: 3,
      recording_msid: top.recording_msid,
      release_name: 'Moon Safari',
      track_name: 'La femme d’argent',
    });
    assert.equal(recordings.body.payload.total_recording_count, 3);
    // The recording_msid is the one the user's listens carry.
    const listens = await lb(app(), 'GET', `/user/${user.handle}/listens?max_ts=${seconds(at('2020-03-02T00:00:00Z'))}`);
    assert.equal(listens.body.payload.listens[0].recording_msid, top.recording_msid);
  });

  test('a previous range counts only its own window; a range without plays is 204 with no body', async () => {
    const user = await lbUser(app(), 'lb-stats-week');
    const { window } = rangeWindow('week');
    const lastWeek = new Date(window.start.getTime() + 2 * HOUR);
    const plays = [
      { artist: 'Low', title: 'Words', at: lastWeek },
      { artist: 'Low', title: 'Lullaby', at: new Date(window.end.getTime()) },
      { artist: 'Low', title: 'Sunflower', at: new Date(window.start.getTime() - 1000) },
    ];
    await play(app(), user, plays);
    const week = await lb(app(), 'GET', `/stats/user/${user.handle}/recordings?range=week`);
    assert.equal(week.status, 200);
    assert.deepEqual(
      week.body.payload.recordings.map((recording: { track_name: string }) => recording.track_name),
      ['Words'],
    );
    assert.deepEqual([week.body.payload.range, week.body.payload.from_ts, week.body.payload.to_ts], ['week', seconds(window.start), seconds(window.end)]);
    const thisWeek = await lb(app(), 'GET', `/stats/user/${user.handle}/recordings?range=this_week`);
    assert.deepEqual(
      thisWeek.body.payload.recordings.map((recording: { track_name: string }) => recording.track_name),
      ['Lullaby'],
    );

    const nobody = await lbUser(app(), 'lb-stats-none');
    for (const path of ['artists', 'releases', 'recordings', 'listening-activity', 'daily-activity']) {
      const empty = await lb(app(), 'GET', `/stats/user/${nobody.handle}/${path}`);
      assert.equal(empty.status, 204, path);
      assert.equal(empty.body, '', path);
    }
    const lastYear = rangeWindow('year').window;
    const olderRange = await lb(app(), 'GET', `/stats/user/${user.handle}/artists?range=year`);
    assert.equal(olderRange.status, plays.some((p) => p.at >= lastYear.start && p.at < lastYear.end) ? 200 : 204);
  });

  test('this_year gives the same numbers as Wrapped for the calendar year in UTC', async () => {
    const user = await lbUser(app(), 'lb-stats-wrapped');
    const year = new Date().getUTCFullYear();
    const start = Date.UTC(year, 0, 1);
    const elapsed = Date.now() - start;
    // Plays spread over the year so far, never in the future.
    const when = (fraction: number) => new Date(start + Math.floor(elapsed * fraction));
    await play(app(), user, [
      ...[0.1, 0.2, 0.3, 0.4].map((f) => ({ artist: 'Mogwai', title: 'Auto Rock', album: 'Mr Beast', at: when(f) })),
      ...[0.5, 0.6].map((f) => ({ artist: 'Slowdive', title: 'Alison', album: 'Souvlaki', at: when(f) })),
      { artist: 'Mogwai', title: 'Friend of the Night', album: 'Mr Beast', at: when(0.7) },
      { artist: 'Ride', title: 'Vapour Trail', album: 'Nowhere', at: new Date(start - 1000) },
    ]);
    const wrapped = (await app().query('app.svc.stats.getWrapped', { did: user.handle, period: 'year', year, tz: 'UTC' })).body;
    const artists = (await lb(app(), 'GET', `/stats/user/${user.handle}/artists?range=this_year`)).body.payload;
    const recordings = (await lb(app(), 'GET', `/stats/user/${user.handle}/recordings?range=this_year`)).body.payload;
    const releases = (await lb(app(), 'GET', `/stats/user/${user.handle}/releases?range=this_year`)).body.payload;
    const pairs = (list: { listen_count: number }[], name: string) => list.map((entry) => [(entry as Record<string, unknown>)[name], entry.listen_count]);
    assert.deepEqual(
      pairs(artists.artists, 'artist_name'),
      wrapped.topArtists.map((artist: { name: string; playCount: number }) => [artist.name, artist.playCount]),
    );
    assert.deepEqual(
      pairs(recordings.recordings, 'track_name'),
      wrapped.topTracks.map((track: { title: string; playCount: number }) => [track.title, track.playCount]),
    );
    assert.deepEqual(
      pairs(releases.releases, 'release_name'),
      wrapped.topAlbums.map((album: { title: string; playCount: number }) => [album.title, album.playCount]),
    );

    const activity = (await lb(app(), 'GET', `/stats/user/${user.handle}/listening-activity?range=this_year`)).body.payload.listening_activity;
    const thisYear = activity.filter((segment: { from_ts: number }) => segment.from_ts >= start / 1000);
    assert.deepEqual(
      thisYear.map((segment: { listen_count: number }) => segment.listen_count),
      wrapped.scrobblesPerMonth.slice(0, thisYear.length).map((month: { count: number }) => month.count),
    );
    const total = thisYear.reduce((sum: number, segment: { listen_count: number }) => sum + segment.listen_count, 0);
    assert.equal(total, wrapped.totalScrobbles);
    assert.equal(
      activity.reduce((sum: number, segment: { listen_count: number }) => sum + segment.listen_count, 0),
      wrapped.totalScrobbles + 1,
    );
  });

  test('listening activity: segments as ListenBrainz lays them out; all_time lists the years with plays', async () => {
    const user = await lbUser(app(), 'lb-stats-activity');
    const { window } = rangeWindow('week');
    await play(app(), user, [
      { artist: 'Bark Psychosis', title: 'Absent Friend', at: new Date(window.start.getTime() + 3 * HOUR) },
      { artist: 'Bark Psychosis', title: 'Big Shot', at: new Date(window.start.getTime() + 4 * HOUR) },
      { artist: 'Talk Talk', title: 'New Grass', at: at('2019-06-01T00:00:00Z') },
    ]);
    const week = (await lb(app(), 'GET', `/stats/user/${user.handle}/listening-activity?range=week`)).body.payload;
    assert.equal(week.listening_activity.length, 14);
    const monday = week.listening_activity[7];
    assert.deepEqual(Object.keys(monday), ['from_ts', 'to_ts', 'time_range', 'listen_count']);
    assert.deepEqual([monday.from_ts, monday.to_ts, monday.listen_count], [seconds(window.start), seconds(window.start) + 86_399, 2]);
    assert.match(monday.time_range, /^Monday \d{2} [A-Z][a-z]+ \d{4}$/);
    assert.equal(week.from_ts, seconds(window.start) - 7 * 86_400);
    assert.equal(week.to_ts, seconds(window.end));

    const allTime = (await lb(app(), 'GET', `/stats/user/${user.handle}/listening-activity`)).body.payload;
    const years = allTime.listening_activity.map((segment: { time_range: string; listen_count: number }) => [segment.time_range, segment.listen_count]);
    assert.deepEqual(years[0], ['2019', 1]);
    assert.equal(allTime.listening_activity[0].from_ts, seconds(at('2019-01-01T00:00:00Z')));
    assert.equal(allTime.listening_activity[0].to_ts, seconds(at('2020-01-01T00:00:00Z')) - 1);
    assert.equal(
      years.reduce((sum: number, [, count]: [string, number]) => sum + count, 0),
      3,
    );
  });

  test('daily activity: every weekday and UTC hour, the plays where they fell', async () => {
    const user = await lbUser(app(), 'lb-stats-daily');
    // 2021-03-03 is a Wednesday.
    await play(app(), user, [
      { artist: 'Slint', title: 'Breadcrumb Trail', at: at('2021-03-03T21:15:00Z') },
      { artist: 'Slint', title: 'Nosferatu Man', at: at('2021-03-03T21:45:00Z') },
      { artist: 'Slint', title: 'Washer', at: at('2021-03-07T00:10:00Z') },
    ]);
    const result = await lb(app(), 'GET', `/stats/user/${user.handle}/daily-activity`);
    const { daily_activity: days, range } = result.body.payload;
    assert.equal(range, 'all_time');
    assert.deepEqual(Object.keys(days), ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    assert.ok(Object.values(days).every((hours) => (hours as unknown[]).length === 24));
    assert.deepEqual(days.Wednesday[21], { hour: 21, listen_count: 2 });
    assert.deepEqual(days.Sunday[0], { hour: 0, listen_count: 1 });
    assert.equal(days.Monday[21].listen_count, 0);
  });

  test('bad parameters are ListenBrainz 400s; an unknown user is 404', async () => {
    const user = await lbUser(app(), 'lb-stats-bad');
    for (const [query, error] of [
      ['?range=fortnight', 'Invalid range: fortnight'],
      ['?count=-1', "'count' should be a non-negative integer"],
      ['?offset=x', "'offset' should be a non-negative integer"],
    ]) {
      const result = await lb(app(), 'GET', `/stats/user/${user.handle}/artists${query}`);
      assert.deepEqual([result.status, result.body], [400, { code: 400, error }], query);
    }
    assert.deepEqual((await lb(app(), 'GET', `/stats/user/${user.handle}/daily-activity?range=decade`)).body, { code: 400, error: 'Invalid range: decade' });
    for (const path of ['artists', 'releases', 'recordings', 'listening-activity', 'daily-activity']) {
      const result = await lb(app(), 'GET', `/stats/user/nobody/${path}`);
      assert.deepEqual([result.status, result.body], [404, { code: 404, error: 'Cannot find user: nobody' }], path);
    }
  });
});

describeWithApp(
  'ListenBrainz reads with rate limits on',
  (app) => {
    test('every new route sends ListenBrainz’s X-RateLimit-* headers', async () => {
      const user = await lbUser(app(), 'lb-limits');
      const results = {
        stats: await lb(app(), 'GET', `/stats/user/${user.handle}/artists`),
        activity: await lb(app(), 'GET', `/stats/user/${user.handle}/daily-activity?range=week`),
        sitewide: await lb(app(), 'GET', '/stats/sitewide/listening-activity?range=week'),
        feedback: await lb(app(), 'GET', `/feedback/user/${user.handle}/get-feedback`),
        latestImport: await lb(app(), 'GET', `/latest-import?user_name=${user.handle}`),
        setLatestImport: await lbAs(app(), user, 'POST', '/latest-import', { ts: 1_700_000_000 }),
        love: await lbAs(app(), user, 'POST', '/feedback/recording-feedback', { recording_msid: '00000000-0000-4000-8000-000000000000', score: 1 }),
      };
      for (const [route, result] of Object.entries(results)) {
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset-in'])
          assert.match(result.headers.get(header) ?? '', /^\d+$/, `${route} ${header}`);
        assert.ok(Number(result.headers.get('x-ratelimit-reset')) > Date.now() / 1000 - 1, `${route}: Reset is a Unix time`);
      }
    });
  },
  { rateLimits: { ...DEFAULT_RATE_LIMITS, redisUrl: undefined, reads: 1000, submissions: 1000, signinFailures: 1000, signinAttempts: 1000 } },
);
