import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { scanLibrary } from '../library/scan/index.ts';
import { testJpeg, writeTestTrack } from '../library/test-music.ts';
import { listenerWithHistory, type TestListen } from '../scrobbling/testing.ts';

const SONGS = 'app.svc.song.getSongs';

/** Björk's three albums in a scanned library; only Homogenic's first track embeds a cover. */
async function scannedLibrary(app: TestApp): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'earshot-covers-'));
  const song = (album: string, trackNumber: number, title: string) => ({ title, artist: 'Björk', albumArtist: 'Björk', album, trackNumber });
  await writeTestTrack(dir, 'Homogenic/01.mp3', 'mp3', { ...song('Homogenic', 1, 'Hunter'), picture: { mime: 'image/jpeg', data: testJpeg() } });
  await writeTestTrack(dir, 'Homogenic/02.mp3', 'mp3', song('Homogenic', 2, 'Jóga'));
  await writeTestTrack(dir, 'Debut/01.mp3', 'mp3', song('Debut', 1, 'Human Behaviour'));
  await writeTestTrack(dir, 'Post/01.mp3', 'mp3', song('Post', 1, 'Army of Me'));
  const report = await scanLibrary(app.ctx, { musicDir: dir });
  assert.equal(report.added, 4);
}

const plays = (times: number, title: string, album: string, day: number): TestListen[] =>
  Array.from({ length: times }, (_, i) => ({ at: `2024-03-${String(day).padStart(2, '0')}T1${i}:00:00Z`, artist: 'Björk', title, album }));

describeWithApp('covers every read shows, and plays that rank and filter songs', (app) => {
  let listener: Awaited<ReturnType<typeof listenerWithHistory>>;
  let cover: string;

  test('a library where only track 1 embeds the cover, and a listener', async () => {
    await scannedLibrary(app());
    listener = await listenerWithHistory(app(), 'bjorkfan', [
      ...plays(4, 'Jóga', 'Homogenic', 1),
      ...plays(2, 'Army of Me', 'Post', 2),
      ...plays(1, 'Hunter', 'Homogenic', 3),
    ]);
    const hunter = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Hunter').executeTakeFirstOrThrow();
    cover = `${app().ctx.config.publicUrl}/library/covers/${hunter.id}`;
  });

  test('the song without a picture shows its album cover in search, artist page, history, feed and Wrapped', async () => {
    const search = (await app().query('app.svc.feed.search', { q: 'joga' })).body;
    const joga = search.songs.find((song: { title: string }) => song.title === 'Jóga');
    assert.equal(joga.albumArt, cover);

    const artist = (await app().query('app.svc.artist.getArtist', { uri: joga.artistUri })).body;
    assert.deepEqual(
      artist.topSongs.map((song: { title: string; albumArt?: string }) => [song.title, song.albumArt]),
      [
        ['Jóga', cover],
        ['Army of Me', undefined],
        ['Hunter', cover],
        ['Human Behaviour', undefined],
      ],
    );
    assert.equal(artist.topAlbums.find((album: { title: string }) => album.title === 'Homogenic').albumArt, cover);

    const history = (await app().query('app.svc.actor.getActorScrobbles', { did: listener.did, limit: 100 })).body.scrobbles;
    const feed = (await app().query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${listener.did}`, limit: 100 })).body.scrobbles;
    for (const scrobbles of [history, feed]) {
      const jogaPlays = scrobbles.filter((scrobble: { title: string }) => scrobble.title === 'Jóga');
      assert.deepEqual(
        jogaPlays.map((scrobble: { albumArt?: string; cover?: string }) => [scrobble.albumArt, scrobble.cover]),
        Array.from({ length: 4 }, () => [cover, cover]),
      );
    }

    const wrapped = (await app().query('app.svc.stats.getWrapped', { did: listener.did, year: 2024, tz: 'UTC' })).body;
    assert.equal(wrapped.topTracks[0].title, 'Jóga');
    assert.equal(wrapped.topTracks[0].albumArt, cover);
  });

  test('the library (Subsonic cover ids) follows the same rule: the album, and its song without a picture, name the album', async () => {
    const album = await app().ctx.db.selectFrom('albums').select('id').where('title', '=', 'Homogenic').executeTakeFirstOrThrow();
    const { body } = await app().query('app.svc.library.getAlbum', { id: album.id }, listener.token);
    assert.equal(body.album.coverArt, album.id);
    assert.deepEqual(
      body.album.song.map((song: { title: string; coverArt?: string }) => [song.title, song.coverArt === album.id ? 'album' : song.coverArt]),
      [
        ['Hunter', body.album.song[0].id],
        ['Jóga', 'album'],
      ],
    );
  });

  test('"bjork" finds Björk, her three albums and her songs, most played first', async () => {
    const { body } = await app().query('app.svc.feed.search', { q: 'bjork' });
    assert.deepEqual(
      body.artists.map((artist: { name: string }) => artist.name),
      ['Björk'],
    );
    assert.deepEqual(
      body.albums.map((album: { title: string; playCount: number }) => [album.title, album.playCount]),
      [
        ['Homogenic', 5],
        ['Post', 2],
        ['Debut', 0],
      ],
    );
    assert.deepEqual(
      body.songs.map((song: { title: string }) => song.title),
      ['Jóga', 'Army of Me', 'Hunter', 'Human Behaviour'],
    );
  });

  test('songs sort and filter by play count', async () => {
    const titles = (body: { tracks: { title: string; playCount: number }[] }) => body.tracks.map((song) => [song.title, song.playCount]);
    assert.deepEqual(titles((await app().query(SONGS, { sort: '-playCount' })).body), [
      ['Jóga', 4],
      ['Army of Me', 2],
      ['Hunter', 1],
      ['Human Behaviour', 0],
    ]);
    assert.deepEqual(titles((await app().query(SONGS, { sort: 'playCount', filter: 'playCount=gt=1' })).body), [
      ['Army of Me', 2],
      ['Jóga', 4],
    ]);
    assert.deepEqual(titles((await app().query(SONGS, { filter: 'playCount==0' })).body), [['Human Behaviour', 0]]);
    assert.equal((await app().query(SONGS, { filter: 'playCount==many' })).status, 400);
  });
});
