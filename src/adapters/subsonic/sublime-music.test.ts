import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { testJpeg, writeTestImage, writeTestTrack } from '../../core/library/test-music.ts';
import { startTestApp, oneBackend, type TestApp } from '../../app/testing.ts';
import { restJson, subsonicUser } from './client-testing.ts';

/**
 * Issue 24: a real Subsonic player, Sublime Music (Debian package `sublime-music`), against a
 * running Earshot. sublime-music-client.py drives the player's own Subsonic adapter, unmodified,
 * without its GUI, and prints what each step got back. One backend: what is tested is the HTTP the
 * player sends and reads; storing it is covered on both by the tests of each method.
 */

const SCRIPT = path.join(import.meta.dirname, 'sublime-music-client.py');

/** The command that runs Python with the player's modules: the interpreter named by its launcher's `#!`, or why there is none. */
function findSublimeMusic(): { command: string[] } | { missing: string } {
  const launcher = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'sublime-music'))
    .find((file) => fs.existsSync(file));
  if (!launcher) return { missing: 'sublime-music is not installed (Debian package sublime-music)' };
  const shebang = fs.readFileSync(launcher, 'utf8').split('\n', 1)[0]!;
  if (!shebang.startsWith('#!')) return { missing: `${launcher} does not start with #! naming its Python` };
  const command = shebang.slice(2).trim().split(/\s+/);
  const probe = spawnSync(command[0]!, [...command.slice(1), '-c', 'import sublime_music.adapters.subsonic'], { encoding: 'utf8' });
  if (probe.status !== 0) return { missing: `${command.join(' ')} cannot import Sublime Music's adapter: ${probe.error ?? probe.stderr}` };
  return { command };
}

const sublimeMusic = findSublimeMusic();
const missing = 'missing' in sublimeMusic ? sublimeMusic.missing : undefined;
const skip = missing !== undefined && process.env.CI !== 'true' ? missing : false;

/** Runs the driver asynchronously (the server answers from this same process) and parses its JSON. */
function runClient(command: string[], args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, [...command.slice(1), SCRIPT, ...args], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      if (status === 0) resolve(JSON.parse(stdout));
      else reject(new Error(`sublime-music-client.py exited ${status}\n${stderr}\n${stdout}`));
    });
  });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Sublime Music (Debian sublime-music) against Earshot', { skip }, () => {
  let app: TestApp;
  let musicDir: string;
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let results: Record<string, any>;
  const files: Record<string, Uint8Array> = {};

  before(async () => {
    assert.ok('command' in sublimeMusic, `${missing}: CI must install it (.ci/run)`);
    musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
    const album = { album: 'Night Drive', albumArtist: 'The Examples', artist: 'The Examples', year: 2021, genre: 'Synthwave', discNumber: 1 };
    const cover = { mime: 'image/jpeg' as const, data: testJpeg('embedded') };
    files.neon = (
      await writeTestTrack(
        musicDir,
        'The Examples/Night Drive/01 Neon.mp3',
        'mp3',
        { ...album, title: 'Neon', trackNumber: 1, picture: cover },
        { durationMs: 3000 },
      )
    ).bytes;
    await writeTestTrack(musicDir, 'The Examples/Night Drive/02 Tunnel.flac', 'flac', { ...album, title: 'Tunnel', trackNumber: 2 });
    await writeTestTrack(musicDir, 'Solo/Quiet.ogg', 'ogg', { title: 'Quiet Hours', artist: 'Solo Artist', album: 'Winter', year: 1999, genre: 'Ambient' });
    await writeTestImage(musicDir, 'Solo/cover.jpg');
    app = await startTestApp(oneBackend(), { musicDir });
    assert.equal((await scanLibrary(app.ctx)).added, 3);
    user = await subsonicUser(app, 'sublime');
    // The player has no star button; its starred list shows what was starred elsewhere.
    const winter = (await restJson(app, 'search3', { u: user.handle, p: user.key, v: '1.16.1', c: 'test', query: 'Winter' })).searchResult3.album[0];
    assert.equal((await restJson(app, 'star', { u: user.handle, p: user.key, v: '1.16.1', c: 'test', albumId: winter.id })).status, 'ok');
    results = await runClient(sublimeMusic.command, [app.apiUrl, user.handle, user.key, 'quiet']);
  });
  after(async () => {
    await app?.close();
    if (musicDir) fs.rmSync(musicDir, { recursive: true, force: true });
  });

  /** A step's result, failing with the error the player's adapter raised. */
  const step = (name: string) => {
    const result = results[name];
    assert.ok(result !== undefined, `the client did not run ${name}`);
    assert.equal(result?.error, undefined, `${name}: ${result?.error}`);
    return result;
  };

  test('adds the server: token sign-in with an API key, the password form too; a wrong key is refused', () => {
    assert.deepEqual(step('ping'), { available: true, version: '1.16.1' });
    assert.deepEqual(step('capabilities'), { genres: true, playQueue: true });
    assert.deepEqual(step('pingWithPassword'), { available: true, version: '1.16.1' });
    assert.match(results.pingWithWrongPassword.error, /^ServerError: .*/);
  });

  test('browses artists (ignoring "The"), albums in every list the app offers, genres and folders', () => {
    assert.deepEqual(
      step('artists').map((artist: { name: string; albumCount: number }) => [artist.name, artist.albumCount]),
      [
        ['The Examples', 1],
        ['Solo Artist', 1],
      ],
    );
    assert.ok(step('ignoredArticles').includes('The'));
    assert.deepEqual([step('artist').name, step('artist').albums, step('artist').albumCount], ['The Examples', ['Night Drive'], 1]);
    assert.deepEqual(
      step('albumsByName').map((album: { name: string; artist: string; songCount: number }) => [album.name, album.artist, album.songCount]),
      [
        ['Night Drive', 'The Examples', 2],
        ['Winter', 'Solo Artist', 1],
      ],
    );
    for (const list of ['albumsByArtist', 'albumsNewest']) assert.deepEqual(step(list).sort(), ['Night Drive', 'Winter'], list);
    assert.deepEqual(step('albumsStarred'), ['Winter'], 'starred before the client ran');
    assert.deepEqual(step('albumsRandom'), ['Night Drive', 'Winter']);
    assert.deepEqual(
      step('genres').map((genre: { name: string }) => genre.name),
      ['Ambient', 'Synthwave'],
    );
    assert.deepEqual(step('albumsByGenre'), ['Winter']);
    assert.deepEqual(step('albumsByYear'), ['Night Drive']);
    const directories = step('directories');
    assert.deepEqual(directories.root.sort(), ['Solo', 'The Examples']);
    assert.ok(directories.first.children.length > 0, JSON.stringify(directories));
  });

  test('opens an album: its songs in order, with their tags; one song in detail', () => {
    const album = step('album');
    assert.equal(album.name, 'Night Drive');
    assert.equal(album.year, 2021);
    assert.equal(album.genre, 'Synthwave');
    assert.deepEqual(
      album.songs.map((song: { title: string; disc: number; track: number; artist: string; path: string }) => [
        song.title,
        song.disc,
        song.track,
        song.artist,
        song.path,
      ]),
      [
        ['Neon', 1, 1, 'The Examples', 'The Examples/Night Drive/01 Neon.mp3'],
        ['Tunnel', 1, 2, 'The Examples', 'The Examples/Night Drive/02 Tunnel.flac'],
      ],
    );
    assert.deepEqual(step('song'), album.songs[0]);
    assert.equal(step('song').size, files.neon!.length);
    assert.equal(step('song').duration, 3);
  });

  test('plays and caches a song: stream and download are the file; the album cover is an image', () => {
    for (const name of ['stream', 'download']) {
      const fetched = step(name);
      assert.deepEqual([fetched.status, fetched.contentType, fetched.sha256], [200, 'audio/mpeg', sha256(files.neon!)], name);
    }
    assert.deepEqual([step('albumsFrequent'), step('albumsRecent')], [['Night Drive'], ['Night Drive']], 'the album played');
    const cover = step('coverArt');
    assert.equal(cover.status, 200);
    assert.match(cover.contentType, /^image\//);
  });

  test('searches', () => {
    assert.deepEqual(step('search'), { artists: [], albums: [], songs: ['Quiet Hours'] });
  });

  test('the scrobble it sends when a song is played is a stored play', async () => {
    assert.equal(step('scrobble'), true);
    const feed = await app.query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${user.handle}` });
    assert.deepEqual(
      feed.body.scrobbles.map((scrobble: { title: string }) => scrobble.title),
      ['Neon'],
    );
  });

  test('creates a playlist, renames it and makes it public (public=True), appends, reorders, deletes', () => {
    const playlists = step('playlists');
    assert.deepEqual(playlists.created.songs, ['Neon']);
    assert.deepEqual(
      [playlists.edited.name, playlists.edited.comment, playlists.edited.public, playlists.edited.songs],
      ['Road trip 2', 'for the drive', true, ['Neon', 'Tunnel']],
    );
    assert.deepEqual(playlists.reordered.songs, ['Tunnel', 'Neon', 'Tunnel']);
    assert.deepEqual(
      playlists.listed.map((playlist: { name: string; songCount: number }) => [playlist.name, playlist.songCount]),
      [['Road trip 2', 3]],
    );
    assert.deepEqual([playlists.cover.status, playlists.cover.contentType], [200, 'image/jpeg']);
    assert.deepEqual(playlists.afterDelete, []);
  });

  test('saves the play queue and reads it back (Sync Play Queue)', () => {
    const album = step('album');
    assert.deepEqual(step('playQueue'), {
      songs: album.songs.map((song: { id: string }) => song.id),
      currentIndex: 1,
      position: 12.5,
      changedBy: 'Sublime Music',
    });
  });
});
