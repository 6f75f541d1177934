import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testBackends } from '../../toolkit/db/testing.ts';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { testJpeg, writeTestImage, writeTestTrack } from '../../core/library/test-music.ts';
import { startTestApp, type TestApp } from '../../app/testing.ts';
import { subsonicClient, subsonicUser } from './client-testing.ts';

/**
 * The "done when": a Subsonic player given a handle and an API key browses the local
 * folder, plays a song and has the play recorded; stars, playlists and the play queue it keeps
 * are the ones the XRPC API shows. Everything goes through the unmodified `subsonic-api` client
 * against the real server, over music the test writes and the scanner reads.
 */
for (const backend of testBackends()) {
  describe(`a Subsonic player against Earshot [${backend.name}]`, () => {
    let app: TestApp;
    let musicDir: string;
    let user: Awaited<ReturnType<typeof subsonicUser>>;
    const files: Record<string, Uint8Array> = {};

    before(async () => {
      musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
      const cover = { mime: 'image/jpeg' as const, data: testJpeg('embedded') };
      const album = { album: 'Night Drive', albumArtist: 'The Examples', artist: 'The Examples', year: 2021, genre: 'Synthwave' };
      files.first = (
        await writeTestTrack(
          musicDir,
          'The Examples/Night Drive/01 Neon.mp3',
          'mp3',
          { ...album, title: 'Neon', trackNumber: 1, picture: cover },
          { durationMs: 3000 },
        )
      ).bytes;
      files.second = (await writeTestTrack(musicDir, 'The Examples/Night Drive/02 Tunnel.flac', 'flac', { ...album, title: 'Tunnel', trackNumber: 2 })).bytes;
      files.third = (
        await writeTestTrack(musicDir, 'Solo/Quiet.ogg', 'ogg', { title: 'Quiet Hours', artist: 'Solo Artist', album: 'Alone', lyrics: 'line one\nline two' })
      ).bytes;
      await writeTestImage(musicDir, 'Solo/cover.jpg');
      app = await startTestApp(backend, { musicDir });
      const report = await scanLibrary(app.ctx);
      assert.equal(report.added, 3, JSON.stringify(report));
      user = await subsonicUser(app, 'player');
    });
    after(async () => {
      await app?.close();
      fs.rmSync(musicDir, { recursive: true, force: true });
    });

    const client = () => subsonicClient(app, { username: user.handle, password: user.key });

    test('browses the folder and the ID3 catalog', async () => {
      assert.equal((await client().ping()).status, 'ok');
      const folders = await client().getMusicFolders();
      assert.equal(folders.musicFolders.musicFolder?.length, 1);
      const artists = (await client().getArtists()).artists.index?.flatMap((index) => index.artist ?? []) ?? [];
      assert.deepEqual(artists.map((artist) => artist.name).sort(), ['Solo Artist', 'The Examples']);
      const examples = await client().getArtist({ id: artists.find((artist) => artist.name === 'The Examples')!.id });
      const album = await client().getAlbum({ id: examples.artist.album![0]!.id });
      assert.deepEqual(
        album.album.song?.map((song) => [song.title, song.track, song.suffix]),
        [
          ['Neon', 1, 'mp3'],
          ['Tunnel', 2, 'flac'],
        ],
      );
      const found = await client().search3({ query: 'quiet' });
      assert.deepEqual(
        found.searchResult3.song?.map((song) => song.title),
        ['Quiet Hours'],
      );
    });

    test('plays a song: the stream is the file, a range is a 206 slice, covers come from the file or its folder', async () => {
      const song = (await client().search3({ query: 'Neon' })).searchResult3.song![0]!;
      const whole = await client().stream({ id: song.id });
      assert.equal(whole.status, 200);
      assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), files.first);
      const ranged = await fetch(
        `${app.apiUrl}/rest/stream.view?${new URLSearchParams({ u: user.handle, p: user.key, v: '1.16.1', c: 'test', id: song.id })}`,
        { headers: { range: 'bytes=10-19' } },
      );
      assert.equal(ranged.status, 206);
      assert.deepEqual(new Uint8Array(await ranged.arrayBuffer()), files.first!.slice(10, 20));
      const embedded = await client().getCoverArt({ id: song.id });
      assert.equal(embedded.headers.get('content-type'), 'image/jpeg');
      const quiet = (await client().search3({ query: 'Quiet' })).searchResult3.song![0]!;
      assert.equal((await client().getCoverArt({ id: quiet.id })).status, 200);
    });

    test('the play is recorded through scrobble and shows in the feed; now playing is everyone’s to see', async () => {
      const song = (await client().search3({ query: 'Tunnel' })).searchResult3.song![0]!;
      await client().scrobble({ id: song.id, submission: false });
      const playing = await client().getNowPlaying();
      assert.equal(playing.nowPlaying.entry?.[0]?.title, 'Tunnel');
      const time = Date.now() - 60_000;
      await client().scrobble({ id: song.id, time, submission: true });
      await client().scrobble({ id: song.id, time, submission: true });
      const feed = await app.query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${user.handle}` });
      assert.deepEqual(
        feed.body.scrobbles.map((scrobble: { title: string; createdAt: string }) => [scrobble.title, Date.parse(scrobble.createdAt)]),
        [['Tunnel', Math.floor(time / 1000) * 1000]],
      );
    });

    test('"refresh library" scans again: a new file becomes a song, and the status tells when it is done', async () => {
      await writeTestTrack(musicDir, 'Solo/Later.mp3', 'mp3', { title: 'Added Later', artist: 'Solo Artist', album: 'Alone' });
      // startScan answers once the scan runs (a small folder may be done by then), so polling from here is safe.
      await client().startScan();
      let status = (await client().getScanStatus()).scanStatus;
      for (let tries = 0; status.scanning && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await client().getScanStatus()).scanStatus;
      }
      assert.deepEqual([status.scanning, status.count], [false, 4]);
      assert.deepEqual(
        (await client().search3({ query: 'Added Later' })).searchResult3.song?.map((song) => song.title),
        ['Added Later'],
      );
    });

    test('a star is a like, playlists round trip, and the play queue is the XRPC queue', async () => {
      const songs = (await client().search3({ query: '' })).searchResult3.song!;
      assert.equal(songs.length, 4);
      const neon = songs.find((song) => song.title === 'Neon')!;
      await client().star({ id: neon.id });
      const token = (await app.request('POST', '/auth/login', { body: { identifier: user.handle, password: 'correct horse battery' } })).body.token;
      const liked = await app.query('app.svc.song.getSongs', { filter: 'title==Neon' }, token);
      assert.equal(liked.body.tracks[0].liked, true);
      assert.equal((await client().getStarred2()).starred2.song?.[0]?.id, neon.id);

      await client().createPlaylist({ name: 'Drive', songId: songs.map((song) => song.id) });
      const listed = (await client().getPlaylists()).playlists.playlist!;
      assert.deepEqual(
        listed.map((playlist) => [playlist.name, playlist.songCount]),
        [['Drive', songs.length]],
      );
      await client().updatePlaylist({ playlistId: listed[0]!.id, songIndexToRemove: [0], name: 'Drive home' });
      const playlist = (await client().getPlaylist({ id: listed[0]!.id })).playlist;
      assert.deepEqual([playlist.name, playlist.entry?.length], ['Drive home', songs.length - 1]);
      const viaXrpc = await app.query('app.svc.library.getPlaylists', {}, token);
      assert.equal(viaXrpc.body.playlists.playlist[0].name, 'Drive home');

      await client().savePlayQueue({ id: songs.map((song) => song.id), current: songs[1]!.id, position: 1500 });
      const queue = await app.query('app.svc.player.getPlaybackQueue', {}, token);
      assert.deepEqual(
        queue.body.queue.entry.map((entry: { id: string }) => entry.id),
        songs.map((song) => song.id),
      );
      assert.equal(queue.body.queue.current, songs[1]!.id);
      await app.procedure('app.svc.player.clearQueue', {}, token);
      assert.equal((await client().getPlayQueue()).playQueue?.entry?.length ?? 0, 0);
    });
  });
}
