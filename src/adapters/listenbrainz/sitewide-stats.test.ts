import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { rangeWindow } from './stats-ranges.ts';
import { lb, lbUser, play } from './listenbrainz-testing.ts';

const HOUR = 3_600_000;
const DAY_SECONDS = 86_400;
const at = (iso: string) => new Date(iso);
const seconds = (date: Date) => date.getTime() / 1000;
const ENDPOINTS = ['artists', 'releases', 'recordings', 'listening-activity'];

type Entry = Record<string, unknown> & { listen_count: number };
const named = (list: Entry[], key: string) => list.map((entry) => [entry[key], entry.listen_count]);

// The tests share one instance, in order: its plays are every user's, so each test reads only its own window.
describeWithApp('ListenBrainz sitewide statistics', (app) => {
  test('an instance without plays answers 204 with no body; bad parameters are ListenBrainz 400s', async () => {
    for (const path of ENDPOINTS) {
      const empty = await lb(app(), 'GET', `/stats/sitewide/${path}`);
      assert.deepEqual([empty.status, empty.body], [204, ''], path);
    }
    for (const [path, error] of [
      ['artists?range=fortnight', 'Invalid range: fortnight'],
      ['recordings?count=-1', "'count' should be a non-negative integer"],
      ['releases?offset=x', "'offset' should be a non-negative integer"],
      ['listening-activity?range=decade', 'Invalid range: decade'],
    ]) {
      const result = await lb(app(), 'GET', `/stats/sitewide/${path}`);
      assert.deepEqual([result.status, result.body], [400, { code: 400, error }], path);
    }
  });

  test('top lists add up every user’s plays, ranked and paged, in ListenBrainz’s sitewide payload', async () => {
    const ana = await lbUser(app(), 'lb-sitewide-ana');
    const ben = await lbUser(app(), 'lb-sitewide-ben');
    const femme = { artist: 'Air', title: 'La femme d’argent', album: 'Moon Safari' };
    await play(app(), ana, [
      { ...femme, at: at('2020-03-01T10:00:00Z') },
      { ...femme, at: at('2020-03-02T10:00:00Z') },
      { artist: 'Beak', title: 'Yatton', album: 'Beak>', at: at('2020-04-01T10:00:00Z') },
    ]);
    await play(app(), ben, [
      { ...femme, at: at('2020-03-05T10:00:00Z') },
      { artist: 'Can', title: 'Vitamin C', album: 'Ege Bamyasi', at: at('2021-01-01T10:00:00Z') },
      { artist: 'Can', title: 'Vitamin C', album: 'Ege Bamyasi', at: at('2021-01-02T10:00:00Z') },
    ]);

    // No token: sitewide statistics are public, as on ListenBrainz.
    const artists = await lb(app(), 'GET', '/stats/sitewide/artists');
    assert.equal(artists.status, 200);
    const { artists: list, last_updated, to_ts, ...header } = artists.body.payload;
    // ListenBrainz's sitewide count is the count asked for (25 by default), not the list's length; no user_id.
    assert.deepEqual(header, { range: 'all_time', from_ts: seconds(at('2002-01-01T00:00:00Z')), count: 25, offset: 0, total_artist_count: 3 });
    assert.ok(Math.abs(last_updated - Date.now() / 1000) < 3600 && to_ts >= last_updated - 1);
    assert.deepEqual(list, [
      { artist_mbids: [], artist_name: 'Air', listen_count: 3 },
      { artist_mbids: [], artist_name: 'Can', listen_count: 2 },
      { artist_mbids: [], artist_name: 'Beak', listen_count: 1 },
    ]);
    // Each user's own list is their part of the sum.
    const anaArtists = (await lb(app(), 'GET', `/stats/user/${ana.handle}/artists`)).body.payload.artists;
    assert.deepEqual(named(anaArtists, 'artist_name'), [
      ['Air', 2],
      ['Beak', 1],
    ]);

    const page = (await lb(app(), 'GET', '/stats/sitewide/artists?count=1&offset=1')).body.payload;
    assert.deepEqual([named(page.artists, 'artist_name'), page.count, page.offset, page.total_artist_count], [[['Can', 2]], 1, 1, 3]);
    const past = await lb(app(), 'GET', '/stats/sitewide/artists?offset=10');
    assert.deepEqual([past.status, past.body.payload.artists, past.body.payload.total_artist_count], [200, [], 3]);

    const releases = (await lb(app(), 'GET', '/stats/sitewide/releases?count=2')).body.payload;
    assert.deepEqual(releases.releases, [
      { artist_mbids: [], artist_name: 'Air', listen_count: 3, release_name: 'Moon Safari' },
      { artist_mbids: [], artist_name: 'Can', listen_count: 2, release_name: 'Ege Bamyasi' },
    ]);
    assert.deepEqual([releases.count, releases.total_release_count, releases.user_id], [2, 3, undefined]);

    const recordings = (await lb(app(), 'GET', '/stats/sitewide/recordings')).body.payload;
    const [top] = recordings.recordings;
    assert.deepEqual(top, {
      artist_mbids: [],
      artist_name: 'Air',
      listen_count: 3,
      recording_msid: top.recording_msid,
      release_name: 'Moon Safari',
      track_name: 'La femme d’argent',
    });
    assert.deepEqual(named(recordings.recordings, 'track_name'), [
      ['La femme d’argent', 3],
      ['Vitamin C', 2],
      ['Yatton', 1],
    ]);
    assert.equal(recordings.total_recording_count, 3);

    const years = (await lb(app(), 'GET', '/stats/sitewide/listening-activity')).body.payload;
    assert.equal(years.range, 'all_time');
    assert.deepEqual(
      years.listening_activity.slice(0, 2).map((year: Entry) => [year.time_range, year.listen_count, year.from_ts]),
      [
        ['2020', 4, seconds(at('2020-01-01T00:00:00Z'))],
        ['2021', 2, seconds(at('2021-01-01T00:00:00Z'))],
      ],
    );
  });

  test('a range counts only its window: top lists and listening activity by day, every user’s plays in each', async () => {
    const cy = await lbUser(app(), 'lb-sitewide-cy');
    const dee = await lbUser(app(), 'lb-sitewide-dee');
    const { window } = rangeWindow('week');
    const monday = window.start.getTime();
    await play(app(), cy, [
      { artist: 'Low', title: 'Words', at: new Date(monday + 3 * HOUR) },
      { artist: 'Low', title: 'Words', at: new Date(monday + 4 * HOUR) },
      // The week before: in the activity's earlier half, not in the week's lists.
      { artist: 'Low', title: 'Lullaby', at: new Date(monday - 20 * HOUR) },
    ]);
    await play(app(), dee, [
      { artist: 'Low', title: 'Words', at: new Date(monday + 5 * HOUR) },
      { artist: 'Codeine', title: 'D', at: new Date(monday + 30 * HOUR) },
    ]);

    const week = (await lb(app(), 'GET', '/stats/sitewide/recordings?range=week')).body.payload;
    assert.deepEqual([week.range, week.from_ts, week.to_ts], ['week', seconds(window.start), seconds(window.end)]);
    assert.deepEqual(named(week.recordings, 'track_name'), [
      ['Words', 3],
      ['D', 1],
    ]);
    const artists = (await lb(app(), 'GET', '/stats/sitewide/artists?range=week')).body.payload;
    assert.deepEqual(named(artists.artists, 'artist_name'), [
      ['Low', 3],
      ['Codeine', 1],
    ]);

    const activity = (await lb(app(), 'GET', '/stats/sitewide/listening-activity?range=week')).body.payload;
    assert.deepEqual(Object.keys(activity).sort(), ['from_ts', 'last_updated', 'listening_activity', 'range', 'to_ts']);
    assert.deepEqual([activity.range, activity.from_ts, activity.to_ts], ['week', seconds(window.start) - 7 * DAY_SECONDS, seconds(window.end)]);
    const days = activity.listening_activity;
    assert.equal(days.length, 14);
    assert.deepEqual(Object.keys(days[7]), ['from_ts', 'to_ts', 'time_range', 'listen_count']);
    assert.deepEqual([days[7].from_ts, days[7].to_ts], [seconds(window.start), seconds(window.start) + DAY_SECONDS - 1]);
    assert.match(days[7].time_range, /^Monday \d{2} [A-Z][a-z]+ \d{4}$/);
    assert.deepEqual(
      days.map((day: Entry) => day.listen_count),
      [0, 0, 0, 0, 0, 0, 1, 3, 1, 0, 0, 0, 0, 0],
    );
  });
});
