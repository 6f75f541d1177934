import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, lastfmRead, mobileSession, scrobblePlays, type ClientAccount } from './lastfm-testing.ts';

const T0 = Date.parse('2025-05-01T12:00:00Z') / 1000;

describeWithApp('Last.fm user.getInfo, getRecentTracks, getLovedTracks', (app) => {
  let carol: ClientAccount;
  let sessionKey: string;
  const read = (params: Record<string, string>) => lastfmRead(app(), carol, params);
  const json = (params: Record<string, string>) => read({ ...params, format: 'json' });

  before(async () => {
    carol = await createClientAccount(app(), 'reads-carol');
    sessionKey = await mobileSession(app(), carol);
    await scrobblePlays(app(), carol, sessionKey, [
      { artist: 'Stereolab', track: 'French Disko', album: 'Transient Random-Noise Bursts', timestamp: T0 },
      { artist: 'Stereolab', track: 'Ping Pong', album: 'Mars Audiac Quintet', timestamp: T0 + 300 },
      { artist: 'Stereolab', track: 'French Disko', album: 'Transient Random-Noise Bursts', timestamp: T0 + 600 },
    ]);
    const signed = { api_key: carol.key, sk: sessionKey, artist: 'Stereolab', track: 'French Disko' };
    await lastfmCall(app(), { method: 'track.love', ...signed }, { secret: carol.sharedSecret });
    await lastfmCall(
      app(),
      { method: 'track.updateNowPlaying', ...signed, artist: 'Broadcast', track: 'Tears in the Typing Pool' },
      { secret: carol.sharedSecret },
    );
  });

  test('user.getInfo with the API key only, in JSON and XML; an unknown user is error 6', async () => {
    const { status, body } = await json({ method: 'user.getInfo', user: carol.handle });
    assert.equal(status, 200);
    const user = body.user;
    assert.deepEqual([user.name, user.playcount, user.track_count, user.artist_count, user.subscriber], ['reads-carol', '3', '2', '1', '0']);
    assert.equal(user.url, `${app().ctx.config.publicUrl}/u/reads-carol`);
    assert.deepEqual(
      user.image.map((image: any) => image.size),
      ['small', 'medium', 'large', 'extralarge'],
    );
    assert.equal(typeof user.registered['#text'], 'number');
    assert.equal(user.registered.unixtime, String(user.registered['#text']));

    const xml = await read({ method: 'user.getInfo', user: carol.handle });
    assert.match(xml.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<lfm status="ok"><user><name>reads-carol<\/name>/);
    assert.match(xml.body, /<image size="small"><\/image>/);
    assert.match(xml.body, /<registered unixtime="\d+">\d+<\/registered>/);

    // A signed session names its user when `user` is left out.
    const own = await lastfmCall(
      app(),
      { method: 'user.getInfo', api_key: carol.key, sk: sessionKey, format: 'json' },
      { secret: carol.sharedSecret, httpMethod: 'GET' },
    );
    assert.equal(own.body.user.name, 'reads-carol');

    const unknown = await json({ method: 'user.getInfo', user: 'nobody-here' });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 6, message: 'User not found' }]);
    const unknownXml = await read({ method: 'user.getRecentTracks', user: 'nobody-here' });
    assert.match(unknownXml.body, /<lfm status="failed"><error code="6">User not found<\/error><\/lfm>/);
    const badKey = await lastfmCall(app(), { method: 'user.getInfo', user: carol.handle, api_key: 'f'.repeat(32), format: 'json' }, { httpMethod: 'GET' });
    assert.equal(badKey.body.error, 10);
  });

  test('user.getRecentTracks: now playing first, then plays newest first, with paging attributes', async () => {
    const { body } = await json({ method: 'user.getRecentTracks', user: carol.handle });
    const { track: tracks, '@attr': attributes } = body.recenttracks;
    assert.deepEqual(attributes, { user: 'reads-carol', page: '1', perPage: '50', totalPages: '1', total: '3' });
    assert.deepEqual(
      tracks.map((track: any) => track.name),
      ['Tears in the Typing Pool', 'French Disko', 'Ping Pong', 'French Disko'],
    );
    assert.deepEqual(tracks[0]['@attr'], { nowplaying: 'true' });
    assert.equal(tracks[0].date, undefined);
    assert.deepEqual(tracks[1].date, { uts: String(T0 + 600), '#text': '01 May 2025, 12:10' });
    assert.deepEqual(tracks[1].artist, { mbid: '', '#text': 'Stereolab' });
    assert.deepEqual(tracks[1].album, { mbid: '', '#text': 'Transient Random-Noise Bursts' });
    assert.equal(tracks[1].streamable, '0');
    assert.equal(tracks[1].image.length, 4);
    assert.match(tracks[1].url, /\/songs\/[0-9a-f-]{36}$/);

    const second = await json({ method: 'user.getRecentTracks', user: carol.handle, limit: '1', page: '2' });
    assert.deepEqual(second.body.recenttracks['@attr'], { user: 'reads-carol', page: '2', perPage: '1', totalPages: '3', total: '3' });
    assert.deepEqual(
      second.body.recenttracks.track.map((track: any) => track.name),
      ['Ping Pong'],
      'one play, in an array, and no now playing past page 1',
    );

    const window = await json({ method: 'user.getRecentTracks', user: carol.handle, from: String(T0 + 1), to: String(T0 + 600) });
    assert.deepEqual(
      window.body.recenttracks.track.map((track: any) => track.name),
      ['Ping Pong'],
    );
    const empty = await json({ method: 'user.getRecentTracks', user: carol.handle, from: String(T0 + 601), to: String(T0 + 700) });
    assert.deepEqual(empty.body.recenttracks.track, []);

    const extended = await json({ method: 'user.getRecentTracks', user: carol.handle, extended: '1', limit: '2' });
    const [playing, latest] = extended.body.recenttracks.track;
    assert.equal(playing.loved, '0');
    assert.equal(latest.loved, '1');
    assert.equal(latest.artist.name, 'Stereolab');
    assert.match(latest.artist.url, /\/artists\/[0-9a-f-]{36}$/);

    const xml = await read({ method: 'user.getRecentTracks', user: carol.handle, limit: '2' });
    assert.match(
      xml.body,
      /<recenttracks user="reads-carol" page="1" perPage="2" totalPages="2" total="3"><track nowplaying="true"><artist mbid="">Broadcast<\/artist>/,
    );
    // As Last.fm does, the track playing now comes on top of `limit` plays.
    assert.equal(xml.body.match(/<track[ >]/g)!.length, 3);
    assert.match(xml.body, /<name>French Disko<\/name><url>[^<]+<\/url><date uts="1746101400">01 May 2025, 12:10<\/date><\/track>/);

    const refusals: Record<string, string>[] = [{ limit: '201' }, { limit: '0' }, { page: 'two' }, { from: 'yesterday' }];
    for (const params of refusals) {
      const refused = await json({ method: 'user.getRecentTracks', user: carol.handle, ...params });
      assert.deepEqual([refused.status, refused.body.error], [400, 6], JSON.stringify(params));
    }
  });

  test('user.getLovedTracks: liked songs with the time of the like', async () => {
    const { body } = await json({ method: 'user.getLovedTracks', user: carol.handle });
    const { track: tracks, '@attr': attributes } = body.lovedtracks;
    assert.deepEqual(attributes, { user: 'reads-carol', page: '1', perPage: '50', totalPages: '1', total: '1' });
    assert.equal(tracks.length, 1);
    assert.equal(tracks[0].name, 'French Disko');
    assert.equal(tracks[0].artist.name, 'Stereolab');
    const star = await app().ctx.db.selectFrom('stars').select('created_at').where('user_id', '=', carol.userId).executeTakeFirstOrThrow();
    assert.equal(tracks[0].date.uts, String(Math.floor(star.created_at.getTime() / 1000)));
    assert.deepEqual(tracks[0].streamable, { fulltrack: '0', '#text': '0' });
    const xml = await read({ method: 'user.getLovedTracks', user: carol.handle });
    assert.match(
      xml.body,
      /<lovedtracks user="reads-carol" page="1" perPage="50" totalPages="1" total="1"><track><name>French Disko<\/name><mbid><\/mbid><url>[^<]+<\/url><date uts="\d+">/,
    );
  });
});
