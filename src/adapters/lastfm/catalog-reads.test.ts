import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { setAdmin } from '../../core/auth/index.ts';
import { describeWithApp } from '../../app/testing.ts';
import { createClientAccount, lastfmRead, mobileSession, scrobblePlays, type ClientAccount } from './lastfm-testing.ts';

const T0 = Date.parse('2025-05-01T12:00:00Z') / 1000;

describeWithApp('Last.fm reads answered from the catalog: artist top lists, track scrobbles, library, tags, corrections', (app) => {
  let erin: ClientAccount;
  let frank: ClientAccount;
  const json = (params: Record<string, string>) => lastfmRead(app(), erin, { ...params, format: 'json' });
  const xml = async (params: Record<string, string>) => (await lastfmRead(app(), erin, params)).body as string;
  const artistId = async (name: string) => (await app().ctx.db.selectFrom('artists').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const admin = async (nsid: string, input: object) => {
    const result = await app().procedure(nsid, input, erin.token);
    assert.equal(result.status, 200, JSON.stringify(result.body));
  };

  before(async () => {
    erin = await createClientAccount(app(), 'reads-erin');
    frank = await createClientAccount(app(), 'reads-frank');
    await setAdmin(app().ctx.db, erin.handle, true);
    const haha = { artist: 'Broadcast', album: 'Haha Sound' };
    await scrobblePlays(app(), erin, await mobileSession(app(), erin), [
      { ...haha, track: 'Pendulum', timestamp: T0 },
      { ...haha, track: 'Pendulum', timestamp: T0 + 300 },
      { ...haha, track: 'Black Cat', timestamp: T0 + 600 },
      { artist: 'Broadcast', album: 'Tender Buttons', track: "Echo's Answer", timestamp: T0 + 900 },
      { artist: 'Broadcaste', track: 'Tears in the Typing Pool', timestamp: T0 + 1200 },
      { artist: 'Stereolab', album: 'Dots and Loops', track: 'Miss Modular', timestamp: T0 + 1500 },
    ]);
    await scrobblePlays(app(), frank, await mobileSession(app(), frank), [{ ...haha, track: 'Pendulum', timestamp: T0 }]);
    // The typo artist is merged into the real one: its name stays behind as an alias.
    await admin('app.svc.artist.mergeArtists', { from: await artistId('Broadcaste'), into: await artistId('Broadcast') });
    await admin('app.svc.artist.updateArtist', { id: await artistId('Broadcast'), genres: ['Electronic', 'Dream Pop'] });
    const modular = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Miss Modular').executeTakeFirstOrThrow();
    await admin('app.svc.song.updateSong', { id: modular.id, genre: 'dream pop' });
  });

  test('artist.getTopTracks: the artist by any of its names, its songs most played across the server first, paged', async () => {
    const { toptracks } = (await json({ method: 'artist.getTopTracks', artist: 'BROADCAST' })).body;
    assert.deepEqual(toptracks['@attr'], { artist: 'Broadcast', page: '1', perPage: '50', totalPages: '1', total: '4' });
    const [first, ...rest] = toptracks.track;
    assert.deepEqual([first.name, first.playcount, first.listeners, first.streamable, first['@attr']], ['Pendulum', '3', '2', '0', { rank: '1' }]);
    assert.deepEqual([first.artist.name, first.artist.mbid, first.image.length], ['Broadcast', '', 4]);
    assert.match(first.url, /\/songs\/[0-9a-f-]{36}$/);
    assert.deepEqual(rest.map((track: any) => track.name).sort(), ['Black Cat', "Echo's Answer", 'Tears in the Typing Pool']);

    const byOldName = (await json({ method: 'artist.getTopTracks', artist: 'Broadcaste', limit: '1', page: '2' })).body.toptracks;
    assert.deepEqual(
      [byOldName['@attr'].artist, byOldName['@attr'].totalPages, byOldName.track.length, byOldName.track[0]['@attr'].rank],
      ['Broadcast', '4', 1, '2'],
    );

    assert.match(
      await xml({ method: 'artist.getTopTracks', artist: 'Broadcast', limit: '1' }),
      /<lfm status="ok"><toptracks artist="Broadcast" page="1" perPage="1" totalPages="4" total="4"><track rank="1"><name>Pendulum<\/name><playcount>3<\/playcount><listeners>2<\/listeners><mbid><\/mbid><url>[^<]+<\/url><streamable>0<\/streamable><artist><name>Broadcast<\/name>/,
    );
    const unknown = await json({ method: 'artist.getTopTracks', artist: 'Nobody Known' });
    assert.deepEqual([unknown.status, unknown.body], [400, { error: 6, message: 'The artist you supplied could not be found' }]);
  });

  test("artist.getTopAlbums: the artist's albums, most played first, playcount a JSON number as Last.fm gives it", async () => {
    const { topalbums } = (await json({ method: 'artist.getTopAlbums', artist: 'broadcast' })).body;
    assert.deepEqual(topalbums['@attr'], { artist: 'Broadcast', page: '1', perPage: '50', totalPages: '1', total: '2' });
    assert.deepEqual(
      topalbums.album.map((album: any) => [album.name, album.playcount, album.artist.name, album.image.length]),
      [
        ['Haha Sound', 4, 'Broadcast', 4],
        ['Tender Buttons', 1, 'Broadcast', 4],
      ],
    );
    assert.match(
      await xml({ method: 'artist.getTopAlbums', artist: 'Broadcast' }),
      /<topalbums artist="Broadcast" page="1" perPage="50" totalPages="1" total="2"><album><name>Haha Sound<\/name><playcount>4<\/playcount><mbid><\/mbid><url>[^<]+\/albums\/[^<]+<\/url><artist>/,
    );
  });

  test("user.getTrackScrobbles: the user's plays of one song, newest first, matched as plays are; an unknown song has none", async () => {
    const { trackscrobbles } = (await json({ method: 'user.getTrackScrobbles', user: erin.handle, artist: 'broadcast', track: 'PENDULUM' })).body;
    assert.deepEqual(trackscrobbles['@attr'], { user: 'reads-erin', page: '1', perPage: '50', totalPages: '1', total: '2' });
    assert.deepEqual(
      trackscrobbles.track.map((track: any) => [track.name, track.artist['#text'], track.album['#text'], track.date.uts]),
      [
        ['Pendulum', 'Broadcast', 'Haha Sound', String(T0 + 300)],
        ['Pendulum', 'Broadcast', 'Haha Sound', String(T0)],
      ],
    );
    const viaAlias = (await json({ method: 'user.getTrackScrobbles', user: erin.handle, artist: 'Broadcaste', track: 'Tears in the Typing Pool' })).body;
    assert.equal(viaAlias.trackscrobbles.track.length, 1);
    const none = (await json({ method: 'user.getTrackScrobbles', user: frank.handle, artist: 'Nobody', track: 'Nothing' })).body;
    assert.deepEqual(none, { trackscrobbles: { track: [], '@attr': { user: 'reads-frank', page: '1', perPage: '50', totalPages: '0', total: '0' } } });
    assert.match(
      await xml({ method: 'user.getTrackScrobbles', user: erin.handle, artist: 'Broadcast', track: 'Pendulum', limit: '1', page: '2' }),
      new RegExp(
        `<trackscrobbles user="reads-erin" page="2" perPage="1" totalPages="2" total="2"><track><artist mbid="">Broadcast</artist>.*<name>Pendulum</name>.*<date uts="${T0}">01 May 2025, 12:00</date></track></trackscrobbles>`,
      ),
    );
    const missing = await json({ method: 'user.getTrackScrobbles', user: erin.handle, artist: 'Broadcast' });
    assert.deepEqual([missing.status, missing.body.error], [400, 6]);
  });

  test("library.getArtists: every artist the user played, most played first, with Last.fm's tagcount", async () => {
    const { artists } = (await json({ method: 'library.getArtists', user: erin.handle })).body;
    assert.deepEqual(artists['@attr'], { user: 'reads-erin', page: '1', perPage: '50', totalPages: '1', total: '2' });
    assert.deepEqual(
      artists.artist.map((artist: any) => [artist.name, artist.playcount, artist.tagcount, artist.streamable, artist.image.length]),
      [
        ['Broadcast', '5', '0', '0', 4],
        ['Stereolab', '1', '0', '0', 4],
      ],
    );
    assert.match(
      await xml({ method: 'library.getArtists', user: erin.handle, limit: '1', page: '2' }),
      /<artists user="reads-erin" page="2" perPage="1" totalPages="2" total="2"><artist><name>Stereolab<\/name><playcount>1<\/playcount><tagcount>0<\/tagcount>/,
    );
    const nobody = await json({ method: 'library.getArtists', user: 'nobody-here' });
    assert.deepEqual(nobody.body, { error: 6, message: 'User not found' });
  });

  test("tag.getTopArtists: the artists whose genres, or whose songs' genre, carry the tag, most played first; an unknown tag is empty", async () => {
    const { topartists } = (await json({ method: 'tag.getTopArtists', tag: 'DREAM POP' })).body;
    assert.deepEqual(topartists['@attr'], { tag: 'DREAM POP', page: '1', perPage: '50', totalPages: '1', total: '2' });
    assert.deepEqual(
      topartists.artist.map((artist: any) => [artist.name, artist['@attr'].rank, artist.streamable, artist.image.length]),
      [
        ['Broadcast', '1', '0', 4],
        ['Stereolab', '2', '0', 4],
      ],
    );
    const electronic = (await json({ method: 'tag.getTopArtists', tag: 'electronic' })).body.topartists;
    assert.deepEqual(
      electronic.artist.map((artist: any) => artist.name),
      ['Broadcast'],
    );
    const unknown = (await json({ method: 'tag.getTopArtists', tag: 'polka' })).body;
    assert.deepEqual(unknown, { topartists: { artist: [], '@attr': { tag: 'polka', page: '1', perPage: '50', totalPages: '0', total: '0' } } });
    assert.match(
      await xml({ method: 'tag.getTopArtists', tag: 'dream pop', limit: '1' }),
      /<topartists tag="dream pop" page="1" perPage="1" totalPages="2" total="2"><artist rank="1"><name>Broadcast<\/name><mbid><\/mbid><url>[^<]+<\/url><streamable>0<\/streamable><image size="small">/,
    );
  });

  test('track.getCorrection and artist.getCorrection: the names the catalog keeps, flagged when they differ from those sent', async () => {
    const track = (await json({ method: 'track.getCorrection', artist: 'broadcaste', track: 'tears in the typing pool' })).body.corrections.correction;
    assert.deepEqual(track['@attr'], { index: '0', artistcorrected: '1', trackcorrected: '1' });
    assert.deepEqual([track.track.name, track.track.artist.name, track.track.mbid], ['Tears in the Typing Pool', 'Broadcast', '']);
    assert.match(track.track.url, /\/songs\//);
    const exact = (await json({ method: 'track.getCorrection', artist: 'Broadcast', track: 'Pendulum' })).body.corrections.correction;
    assert.deepEqual(exact['@attr'], { index: '0', artistcorrected: '0', trackcorrected: '0' });
    const unknownTrack = (await json({ method: 'track.getCorrection', artist: 'Nobody', track: 'Nothing' })).body;
    assert.deepEqual(unknownTrack, {
      corrections: { correction: { track: { url: '', artist: { url: '' } }, '@attr': { index: '0', artistcorrected: '0', trackcorrected: '0' } } },
    });
    assert.match(
      await xml({ method: 'track.getCorrection', artist: 'broadcast', track: 'black cat' }),
      /<corrections><correction index="0" artistcorrected="1" trackcorrected="1"><track><name>Black Cat<\/name><mbid><\/mbid><url>[^<]+<\/url><artist><name>Broadcast<\/name><mbid><\/mbid><url>[^<]+<\/url><\/artist><\/track><\/correction><\/corrections>/,
    );

    const artist = (await json({ method: 'artist.getCorrection', artist: 'Broadcaste' })).body.corrections.correction;
    assert.deepEqual([artist.artist.name, artist['@attr']], ['Broadcast', { index: '0' }]);
    assert.deepEqual((await json({ method: 'artist.getCorrection', artist: 'Nobody Known' })).body, { corrections: '' });
    assert.match(
      await xml({ method: 'artist.getCorrection', artist: 'stereolab' }),
      /<corrections><correction index="0"><artist><name>Stereolab<\/name><mbid><\/mbid><url>[^<]+\/artists\/[^<]+<\/url><\/artist><\/correction><\/corrections>/,
    );
    const missing = await json({ method: 'artist.getCorrection' });
    assert.deepEqual([missing.status, missing.body.error], [400, 6]);
  });
});
