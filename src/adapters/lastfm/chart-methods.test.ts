import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { createClientAccount, lastfmRead, mobileSession, scrobblePlays, type ClientAccount } from './lastfm-testing.ts';

const DAY = 86_400;
/** A Thursday; its chart week runs from Sunday 2025-04-27 12:00 UTC. */
const OLD = Date.parse('2025-05-01T12:00:00Z') / 1000;
const WEEK_OF_OLD = { from: String(Date.parse('2025-04-27T12:00:00Z') / 1000), to: String(Date.parse('2025-05-04T12:00:00Z') / 1000) };

describeWithApp('Last.fm user.getTop* and weekly charts', (app) => {
  let dave: ClientAccount;
  const json = (params: Record<string, string>) => lastfmRead(app(), dave, { user: dave.handle, ...params, format: 'json' });

  before(async () => {
    dave = await createClientAccount(app(), 'charts-dave');
    const sessionKey = await mobileSession(app(), dave);
    const recent = Math.floor(Date.now() / 1000) - 2 * DAY;
    await scrobblePlays(app(), dave, sessionKey, [
      ...[0, 1, 2].map((i) => ({ artist: 'Broadcast', track: 'Pendulum', album: 'Haha Sound', duration: 240, timestamp: recent + i * 300 })),
      { artist: 'Stereolab', track: 'Ping Pong', album: 'Mars Audiac Quintet', timestamp: recent + 900 },
      ...[0, 1, 2, 3, 4].map((i) => ({ artist: 'Stereolab', track: 'French Disko', album: 'Transient Random-Noise Bursts', timestamp: OLD + i * 300 })),
    ]);
  });

  test('user.getTopArtists over all time and over a period, paged; an unknown period is error 6', async () => {
    const overall = (await json({ method: 'user.getTopArtists' })).body.topartists;
    assert.deepEqual(overall['@attr'], { user: 'charts-dave', page: '1', perPage: '50', totalPages: '1', total: '2' });
    assert.deepEqual(
      overall.artist.map((artist: any) => [artist.name, artist.playcount, artist['@attr'].rank]),
      [
        ['Stereolab', '6', '1'],
        ['Broadcast', '3', '2'],
      ],
    );
    assert.equal(overall.artist[0].image.length, 4);
    assert.match(overall.artist[0].url, /\/artists\/[0-9a-f-]{36}$/);

    for (const period of ['7day', '1month', '3month', '6month', '12month']) {
      const windowed = (await json({ method: 'user.getTopArtists', period })).body.topartists;
      assert.deepEqual(
        windowed.artist.map((artist: any) => [artist.name, artist.playcount]),
        [
          ['Broadcast', '3'],
          ['Stereolab', '1'],
        ],
        period,
      );
    }
    const second = (await json({ method: 'user.getTopArtists', limit: '1', page: '2' })).body.topartists;
    assert.deepEqual(second['@attr'], { user: 'charts-dave', page: '2', perPage: '1', totalPages: '2', total: '2' });
    assert.deepEqual(
      second.artist.map((artist: any) => [artist.name, artist['@attr'].rank]),
      [['Broadcast', '2']],
    );

    const invalid = await json({ method: 'user.getTopArtists', period: 'fortnight' });
    assert.deepEqual([invalid.status, invalid.body.error], [400, 6]);
    const xml = await lastfmRead(app(), dave, { method: 'user.getTopArtists', user: dave.handle });
    assert.match(
      xml.body,
      /<topartists user="charts-dave" page="1" perPage="50" totalPages="1" total="2"><artist rank="1"><name>Stereolab<\/name><playcount>6<\/playcount><mbid><\/mbid><url>/,
    );
  });

  test('the top lists count what getActorArtists, getActorAlbums and getActorSongs count', async () => {
    const did = (await app().ctx.db.selectFrom('users').select('did').where('id', '=', dave.userId).executeTakeFirstOrThrow()).did;
    const actor = async (nsid: string, key: string) => (await app().query(nsid, { did, period: 'last7days' })).body[key].map((item: any) => item.playCount);
    const counts = async (method: string, listName: string, item: string) =>
      (await json({ method, period: '7day' })).body[listName][item].map((entry: any) => Number(entry.playcount));
    assert.deepEqual(await counts('user.getTopArtists', 'topartists', 'artist'), await actor('app.svc.actor.getActorArtists', 'artists'));
    assert.deepEqual(await counts('user.getTopAlbums', 'topalbums', 'album'), await actor('app.svc.actor.getActorAlbums', 'albums'));
    assert.deepEqual(await counts('user.getTopTracks', 'toptracks', 'track'), await actor('app.svc.actor.getActorSongs', 'songs'));
  });

  test('user.getTopAlbums and user.getTopTracks in Last.fm shapes', async () => {
    const albums = (await json({ method: 'user.getTopAlbums' })).body.topalbums;
    const [album] = albums.album;
    assert.deepEqual([album.name, album.playcount, album['@attr'].rank, album.artist.name], ['Transient Random-Noise Bursts', '5', '1', 'Stereolab']);
    assert.deepEqual(Object.keys(album.artist).sort(), ['mbid', 'name', 'url']);

    const tracks = (await json({ method: 'user.getTopTracks', period: '7day' })).body.toptracks;
    const [track] = tracks.track;
    assert.deepEqual([track.name, track.playcount, track.duration, track.artist.name], ['Pendulum', '3', '240', 'Broadcast']);
    assert.deepEqual(track.streamable, { fulltrack: '0', '#text': '0' });
    assert.equal(tracks['@attr'].total, '2');
    const xml = await lastfmRead(app(), dave, { method: 'user.getTopTracks', user: dave.handle, period: '7day', limit: '1' });
    assert.match(
      xml.body,
      /<toptracks user="charts-dave" page="1" perPage="1" totalPages="2" total="2"><track rank="1"><name>Pendulum<\/name><duration>240<\/duration><playcount>3<\/playcount>/,
    );
  });

  test('user.getWeeklyChartList: Sunday-noon weeks from the first play; weekly charts for a week or, by default, the last one', async () => {
    const { weeklychartlist } = (await json({ method: 'user.getWeeklyChartList' })).body;
    assert.deepEqual(weeklychartlist['@attr'], { user: 'charts-dave' });
    assert.deepEqual(weeklychartlist.chart[0], { ...WEEK_OF_OLD, '#text': '' });
    const starts = weeklychartlist.chart.map((chart: any) => Number(chart.from));
    assert.ok(starts.every((start: number, i: number) => i === 0 || start - starts[i - 1] === 7 * DAY));

    const artists = (await json({ method: 'user.getWeeklyArtistChart', ...WEEK_OF_OLD })).body.weeklyartistchart;
    assert.deepEqual(artists['@attr'], { user: 'charts-dave', ...WEEK_OF_OLD });
    assert.deepEqual(artists.artist, [{ name: 'Stereolab', mbid: '', playcount: '5', url: artists.artist[0].url, '@attr': { rank: '1' } }]);

    const albums = (await json({ method: 'user.getWeeklyAlbumChart', ...WEEK_OF_OLD })).body.weeklyalbumchart;
    assert.deepEqual(albums.album[0].artist, { mbid: '', '#text': 'Stereolab' });
    assert.equal(albums.album[0].playcount, '5');

    const lastWeek = (await json({ method: 'user.getWeeklyTrackChart' })).body.weeklytrackchart;
    assert.deepEqual(
      lastWeek.track.map((track: any) => [track.name, track.playcount, track.artist['#text']]),
      [
        ['Pendulum', '3', 'Broadcast'],
        ['Ping Pong', '1', 'Stereolab'],
      ],
    );
    assert.equal(Number(lastWeek['@attr'].to) - Number(lastWeek['@attr'].from), 7 * DAY);

    const xml = await lastfmRead(app(), dave, { method: 'user.getWeeklyChartList', user: dave.handle });
    assert.match(xml.body, new RegExp(`<weeklychartlist user="charts-dave"><chart from="${WEEK_OF_OLD.from}" to="${WEEK_OF_OLD.to}"></chart>`));
    const backwards = await json({ method: 'user.getWeeklyArtistChart', from: WEEK_OF_OLD.to, to: WEEK_OF_OLD.from });
    assert.deepEqual([backwards.status, backwards.body.error], [400, 6]);
  });
});
