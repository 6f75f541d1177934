import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, lastfmRead, mobileSession, scrobblePlays, type ClientAccount } from './lastfm-testing.ts';

const T0 = Date.parse('2025-05-01T12:00:00Z') / 1000;
const RECORDING = '2b8c1a0c-1f5e-4a4e-8b8e-0a6c4f1d2e3f';

describeWithApp('Last.fm track.getInfo, artist.getInfo, album.getInfo', (app) => {
  let erin: ClientAccount;
  let frank: ClientAccount;
  const json = (params: Record<string, string>) => lastfmRead(app(), erin, { ...params, format: 'json' });

  before(async () => {
    erin = await createClientAccount(app(), 'info-erin');
    frank = await createClientAccount(app(), 'info-frank');
    const erinSession = await mobileSession(app(), erin);
    const play = { artist: 'Broadcast', album: 'Haha Sound', duration: 240 };
    await scrobblePlays(app(), erin, erinSession, [
      { ...play, track: 'Pendulum', mbid: RECORDING, timestamp: T0 },
      { ...play, track: 'Pendulum', timestamp: T0 + 300 },
      { ...play, track: 'Black Cat', timestamp: T0 + 600 },
    ]);
    await scrobblePlays(app(), frank, await mobileSession(app(), frank), [{ ...play, track: 'Pendulum', timestamp: T0 }]);
    await lastfmCall(
      app(),
      { method: 'track.love', api_key: erin.key, sk: erinSession, artist: 'Broadcast', track: 'Pendulum' },
      { secret: erin.sharedSecret },
    );
  });

  test('track.getInfo by names or MBID: listeners and plays across users; with username, theirs and whether they love it', async () => {
    const { status, body } = await json({ method: 'track.getInfo', artist: 'broadcast', track: 'PENDULUM', username: erin.handle });
    assert.equal(status, 200);
    const { track } = body;
    assert.deepEqual(
      [track.name, track.listeners, track.playcount, track.duration, track.userplaycount, track.userloved],
      ['Pendulum', '2', '3', '240000', '2', '1'],
    );
    assert.deepEqual([track.artist.name, track.album.title, track.album.artist], ['Broadcast', 'Haha Sound', 'Broadcast']);
    assert.equal(track.album.image.length, 4);
    assert.deepEqual(track.toptags, { tag: [] });
    assert.deepEqual(track.streamable, { fulltrack: '0', '#text': '0' });

    const byMbid = await json({ method: 'track.getInfo', mbid: RECORDING, username: frank.handle });
    assert.deepEqual(
      [byMbid.body.track.name, byMbid.body.track.mbid, byMbid.body.track.userplaycount, byMbid.body.track.userloved],
      ['Pendulum', RECORDING, '1', '0'],
    );
    const anonymous = await json({ method: 'track.getInfo', artist: 'Broadcast', track: 'Pendulum' });
    assert.equal(anonymous.body.track.userplaycount, undefined);

    const xml = await lastfmRead(app(), erin, { method: 'track.getInfo', artist: 'Broadcast', track: 'Black Cat' });
    assert.match(
      xml.body,
      /<lfm status="ok"><track><name>Black Cat<\/name><mbid><\/mbid><url>[^<]+<\/url><duration>240000<\/duration><streamable fulltrack="0">0<\/streamable><listeners>1<\/listeners><playcount>1<\/playcount><artist><name>Broadcast<\/name>/,
    );

    const unknown = await json({ method: 'track.getInfo', artist: 'Broadcast', track: 'Not A Song' });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 6, message: 'Track not found' }]);
    const missing = await json({ method: 'track.getInfo', artist: 'Broadcast' });
    assert.deepEqual([missing.status, missing.body.error], [400, 6]);
    const nobody = await json({ method: 'track.getInfo', artist: 'Broadcast', track: 'Pendulum', username: 'nobody-here' });
    assert.deepEqual(nobody.body, { error: 6, message: 'User not found' });
  });

  test("artist.getInfo and album.getInfo with stats, tracks and the user's plays", async () => {
    const { artist } = (await json({ method: 'artist.getInfo', artist: 'Broadcast', username: erin.handle })).body;
    assert.deepEqual(artist.stats, { listeners: '2', playcount: '4', userplaycount: '3' });
    assert.deepEqual([artist.name, artist.similar, artist.tags, artist.image.length], ['Broadcast', { artist: [] }, { tag: [] }, 4]);

    const { album } = (await json({ method: 'album.getInfo', artist: 'Broadcast', album: 'haha sound', username: frank.handle })).body;
    assert.deepEqual([album.name, album.artist, album.listeners, album.playcount, album.userplaycount], ['Haha Sound', 'Broadcast', '2', '4', '1']);
    assert.deepEqual(album.tracks.track.map((track: any) => [track.name, track.duration, track.artist.name]).sort(), [
      ['Black Cat', '240', 'Broadcast'],
      ['Pendulum', '240', 'Broadcast'],
    ]);

    const xml = await lastfmRead(app(), erin, { method: 'artist.getInfo', artist: 'Broadcast' });
    assert.match(
      xml.body,
      /<artist><name>Broadcast<\/name><mbid><\/mbid><url>[^<]+<\/url><image size="small"><\/image>.*<stats><listeners>2<\/listeners><playcount>4<\/playcount><\/stats><similar><\/similar>/,
    );

    const noArtist = await json({ method: 'artist.getInfo', artist: 'Nobody Known' });
    assert.deepEqual(noArtist.body, { error: 6, message: 'The artist you supplied could not be found' });
    const noAlbum = await json({ method: 'album.getInfo', artist: 'Broadcast', album: 'Tender Buttons' });
    assert.deepEqual(noAlbum.body, { error: 6, message: 'Album not found' });
  });
});
