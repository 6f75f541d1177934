/**
 * Jellyfin, Plex and Emby posting their playback webhooks, in the shapes their documentation and
 * plugins give, to the scrobbler host: now playing on a start, a play on a stop (or Plex's
 * scrobble) that passes the scrobble rule, with its played time.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithApp, jsonRequest, type HttpResult, type TestApp } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../lastfm/lastfm-testing.ts';

const TICKS_PER_MS = 10_000;

/** A PlaybackStart or PlaybackStop as the Jellyfin webhook plugin's Generic destination sends it with "Send All Properties". */
function jellyfin(type: string, extra: Record<string, unknown> = {}) {
  return {
    ServerId: 'e1c8a0d4b7b64c4e9a0f1c2d3e4f5a6b',
    ServerName: 'home',
    ServerVersion: '10.10.3',
    ServerUrl: 'http://192.168.1.2:8096',
    NotificationType: type,
    Timestamp: '2026-11-20T12:04:00.0000000+01:00',
    UtcTimestamp: '2026-11-20T11:04:00.0000000Z',
    Name: 'Windowlicker',
    Overview: '',
    ItemId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    ItemType: 'Audio',
    RunTimeTicks: 240_000 * TICKS_PER_MS,
    RunTime: '00:04:00',
    Year: 1999,
    Album: 'Windowlicker',
    Artist: 'Aphex Twin',
    Provider_musicbrainztrack: '2b4c9e4e-9a5f-4f55-8a0a-3f5b2f1d0c11',
    NotificationUsername: 'ada',
    UserId: '6f1e2d3c4b5a69788796a5b4c3d2e1f0',
    DeviceId: 'TW96aWxsYS81LjA',
    DeviceName: 'Firefox',
    ClientName: 'Jellyfin Web',
    RemoteEndPoint: '192.168.1.20',
    PlaybackPositionTicks: 0,
    PlaybackPosition: '00:00:00',
    IsPaused: false,
    ...extra,
  };
}

/** A Plex webhook: multipart/form-data with the JSON in `payload` and, here, a picture in `thumb`. */
function plexForm(event: string, metadata: Record<string, unknown>, thumbBytes = 0): FormData {
  const payload = {
    event,
    user: true,
    owner: true,
    Account: { id: 1, thumb: 'https://plex.tv/users/abc/avatar', title: 'ada' },
    Server: { title: 'home', uuid: 'f3a1b2c3d4' },
    Player: { local: true, publicAddress: '203.0.113.9', title: 'Plexamp', uuid: 'p1' },
    Metadata: metadata,
  };
  const form = new FormData();
  form.append('payload', JSON.stringify(payload));
  if (thumbBytes > 0) form.append('thumb', new Blob([new Uint8Array(thumbBytes).fill(0xff)], { type: 'image/jpeg' }), 'thumb.jpg');
  return form;
}

const plexTrack = (extra: Record<string, unknown> = {}) => ({
  librarySectionType: 'artist',
  ratingKey: '4021',
  guid: 'plex://track/5d07cdc0403c640290f6d4c1',
  type: 'track',
  title: 'Teardrop',
  grandparentTitle: 'Massive Attack',
  parentTitle: 'Mezzanine',
  index: 3,
  parentIndex: 1,
  duration: 330_000,
  ...extra,
});

/** An Emby 4.7+ webhook as JSON. */
function emby(event: string, playback: Record<string, unknown> = {}, item: Record<string, unknown> = {}) {
  return {
    Title: `ada has ${event} Hyperballad on Emby Web`,
    Date: '2026-11-20T18:30:00.0000000Z',
    Event: event,
    User: { Name: 'ada', Id: 'u1' },
    Item: {
      Name: 'Hyperballad',
      ServerId: 's1',
      Id: '812',
      Type: 'Audio',
      RunTimeTicks: 321_000 * TICKS_PER_MS,
      Album: 'Post',
      AlbumArtist: 'Björk',
      Artists: ['Björk'],
      ProviderIds: { MusicBrainzTrack: '7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09' },
      ...item,
    },
    Server: { Name: 'home', Id: 's1', Version: '4.8.10.0' },
    ...(event === 'playback.start' ? {} : { PlaybackInfo: { PositionTicks: 0, PlaySessionId: 'ps1', ...playback } }),
  };
}

/** Posts a webhook as the server would: JSON, or a FormData as multipart/form-data. */
async function post(app: TestApp, server: string, query: string, body: unknown): Promise<HttpResult> {
  const url = `${app.scrobblerUrl}/media-servers/${server}${query}`;
  if (!(body instanceof FormData)) return jsonRequest(url, 'POST', { body });
  const response = await fetch(url, { method: 'POST', body });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function playsOf(app: TestApp, account: ClientAccount) {
  return app.ctx.db
    .selectFrom('scrobbles')
    .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
    .select([
      'scrobbles.id',
      'scrobbles.source',
      'scrobbles.listened_at',
      'scrobbles.played_ms',
      'scrobbles.submitted',
      'tracks.title',
      'tracks.artist',
      'tracks.mbid',
    ])
    .where('scrobbles.user_id', '=', account.userId)
    .orderBy('scrobbles.listened_at')
    .execute();
}

async function nowPlayingTitle(app: TestApp, account: ClientAccount): Promise<string | undefined> {
  const row = await app.ctx.db
    .selectFrom('now_playing')
    .innerJoin('tracks', 'tracks.id', 'now_playing.track_id')
    .select('tracks.title')
    .where('now_playing.user_id', '=', account.userId)
    .executeTakeFirst();
  return row?.title;
}

describeWithApp('media-server webhooks on the scrobbler host', (app) => {
  let ada: ClientAccount;
  let bo: ClientAccount;
  let cy: ClientAccount;
  before(async () => {
    ada = await createClientAccount(app(), 'media-ada');
    bo = await createClientAccount(app(), 'media-bo');
    cy = await createClientAccount(app(), 'media-cy');
  });

  test('Jellyfin: PlaybackStart is now playing; PlaybackStop past half the track is a play with its played time, stored once', async () => {
    const start = await post(app(), 'jellyfin', `?key=${ada.key}`, jellyfin('PlaybackStart'));
    assert.equal(start.status, 200);
    assert.equal(start.body.status, 'playing');
    assert.equal(await nowPlayingTitle(app(), ada), 'Windowlicker');
    const stop = jellyfin('PlaybackStop', { PlaybackPositionTicks: 200_000 * TICKS_PER_MS, PlaybackPosition: '00:03:20', PlayedToCompletion: false });
    const stored = await post(app(), 'jellyfin', `?key=${ada.key}`, stop);
    assert.equal(stored.status, 200);
    assert.equal(stored.body.status, 'stored');
    assert.equal(stored.body.playedMs, 200_000);
    const [play, ...more] = await playsOf(app(), ada);
    assert.equal(more.length, 0);
    assert.equal(play!.source, 'jellyfin');
    assert.deepEqual([play!.artist, play!.title, play!.mbid], ['Aphex Twin', 'Windowlicker', '2b4c9e4e-9a5f-4f55-8a0a-3f5b2f1d0c11']);
    assert.equal(play!.played_ms, 200_000);
    assert.equal(play!.listened_at.toISOString(), '2026-11-20T11:00:40.000Z', 'the stop time less the position');
    const kept = (play!.submitted as { jellyfin: Record<string, unknown> }).jellyfin;
    assert.equal(kept.NotificationType, 'PlaybackStop');
    assert.equal(kept.RemoteEndPoint, undefined, "the listener's address is not kept");
    // The same stop again (a re-sent webhook) is the same play.
    assert.equal((await post(app(), 'jellyfin', `?key=${ada.key}`, stop)).body.status, 'duplicate');
    // The played time is on the play as the API shows it.
    const shown = await app().query('app.svc.scrobble.getScrobble', { id: play!.id }, ada.token);
    assert.equal(shown.body.scrobble.playedMs, 200_000);
  });

  test('Jellyfin: a short listen is no play; played to completion counts the whole track; progress, films and other users are ignored', async () => {
    const short = await post(
      app(),
      'jellyfin',
      `?key=${bo.key}`,
      jellyfin('PlaybackStop', { PlaybackPositionTicks: 30_000 * TICKS_PER_MS, UtcTimestamp: '2026-11-21T10:00:00Z' }),
    );
    assert.deepEqual(short.body, { status: 'ignored', reason: 'played for less than half the track and under 4 minutes' });
    const whole = await post(
      app(),
      'jellyfin',
      `?key=${bo.key}`,
      jellyfin('PlaybackStop', { PlaybackPositionTicks: 0, PlayedToCompletion: true, UtcTimestamp: '2026-11-21T11:00:00Z' }),
    );
    assert.equal(whole.body.status, 'stored');
    assert.equal(whole.body.playedMs, 240_000);
    for (const [body, reason] of [
      [jellyfin('PlaybackProgress', { PlaybackPositionTicks: 100_000 * TICKS_PER_MS }), 'progress is not needed: the start and the stop say it all'],
      [jellyfin('PlaybackStop', { ItemType: 'Movie', Name: 'Heat', PlaybackPositionTicks: 9_000_000 * TICKS_PER_MS }), 'not a track (ItemType Movie)'],
      [jellyfin('ItemAdded'), 'ItemAdded is not a playback event'],
    ] as const) {
      const result = await post(app(), 'jellyfin', `?key=${bo.key}`, body);
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, { status: 'ignored', reason });
    }
    const someoneElse = await post(
      app(),
      'jellyfin',
      `?key=${bo.key}&user=bo`,
      jellyfin('PlaybackStop', { PlaybackPositionTicks: 239_000 * TICKS_PER_MS, UtcTimestamp: '2026-11-21T12:00:00Z' }),
    );
    assert.deepEqual(someoneElse.body, { status: 'ignored', reason: 'another user of the server' });
    assert.equal((await playsOf(app(), bo)).length, 1);
  });

  test('Plex: media.play (multipart, with a large thumb) is now playing; media.scrobble is the play; media.stop and episodes are not', async () => {
    const play = await post(app(), 'plex', `?key=${cy.key}&user=ada`, plexForm('media.play', plexTrack({ viewOffset: 0 }), 3 * 1024 * 1024));
    assert.equal(play.status, 200);
    assert.equal(play.body.status, 'playing');
    assert.equal(await nowPlayingTitle(app(), cy), 'Teardrop');
    const scrobble = await post(app(), 'plex', `?key=${cy.key}&user=ADA`, plexForm('media.scrobble', plexTrack({ viewOffset: 297_000 }), 40_000));
    assert.equal(scrobble.body.status, 'stored');
    const stop = await post(app(), 'plex', `?key=${cy.key}`, plexForm('media.stop', plexTrack({ viewOffset: 330_000 })));
    assert.equal(stop.body.status, 'ignored');
    const episode = await post(app(), 'plex', `?key=${cy.key}`, plexForm('media.scrobble', { type: 'episode', title: 'Pilot', duration: 2_600_000 }));
    assert.deepEqual(episode.body, { status: 'ignored', reason: 'not a track (episode)' });
    const plays = await playsOf(app(), cy);
    assert.equal(plays.length, 1);
    assert.deepEqual([plays[0]!.source, plays[0]!.artist, plays[0]!.title, plays[0]!.played_ms], ['plex', 'Massive Attack', 'Teardrop', 297_000]);
  });

  test('Emby: playback.start is now playing; playback.stop past half the track is a play (JSON or a form with data); short stops are not', async () => {
    const dee = await createClientAccount(app(), 'media-dee');
    assert.equal((await post(app(), 'emby', `?key=${dee.key}`, emby('playback.start'))).body.status, 'playing');
    assert.equal(await nowPlayingTitle(app(), dee), 'Hyperballad');
    const stored = await post(app(), 'emby', `?key=${dee.key}`, emby('playback.stop', { PositionTicks: 300_000 * TICKS_PER_MS, PlayedToCompletion: false }));
    assert.equal(stored.body.status, 'stored');
    const short = await post(app(), 'emby', `?key=${dee.key}`, emby('playback.stop', { PositionTicks: 20_000 * TICKS_PER_MS }));
    assert.equal(short.body.status, 'ignored');
    assert.equal((await post(app(), 'emby', `?key=${dee.key}`, emby('playback.pause'))).body.status, 'ignored');
    const form = new FormData();
    form.append('data', JSON.stringify({ ...emby('playback.stop', { PositionTicks: 321_000 * TICKS_PER_MS }), Date: '2026-11-22T09:00:00Z' }));
    assert.equal((await post(app(), 'emby', `?key=${dee.key}`, form)).body.status, 'stored');
    const plays = await playsOf(app(), dee);
    assert.deepEqual(
      plays.map((play) => [play.source, play.artist, play.title, play.played_ms, play.listened_at.toISOString()]),
      [
        ['emby', 'Björk', 'Hyperballad', 300_000, '2026-11-20T18:25:00.000Z'],
        ['emby', 'Björk', 'Hyperballad', 321_000, '2026-11-22T08:54:39.000Z'],
      ],
    );
  });

  test('a missing or wrong key is 401 before the body is read; a body no server sends is 400', async () => {
    const missing = await post(app(), 'jellyfin', '', jellyfin('PlaybackStart'));
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error, 'AuthenticationFailed');
    const wrong = await post(app(), 'plex', `?key=${'0'.repeat(32)}`, plexForm('media.play', plexTrack()));
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { error: 'AuthenticationFailed', message: 'The API key is not valid' });
    const notJson = await jsonRequest(`${app().scrobblerUrl}/media-servers/emby?key=${ada.key}`, 'POST', { body: '{"Event":', headers: {} });
    assert.equal(notJson.status, 400);
    const list = await post(app(), 'emby', `?key=${ada.key}`, [emby('playback.start')]);
    assert.equal(list.status, 400);
    assert.equal(list.body.error, 'InvalidRequest');
    const untyped = await post(app(), 'jellyfin', `?key=${ada.key}`, { Name: 'Windowlicker' });
    assert.equal(untyped.status, 400);
    const noPayload = new FormData();
    noPayload.append('thumb', new Blob([new Uint8Array(10)]), 'thumb.jpg');
    const formWithout = await post(app(), 'plex', `?key=${ada.key}`, noPayload);
    assert.deepEqual([formWithout.status, formWithout.body.error], [400, 'InvalidRequest']);
  });
});
