import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { createClientAccount, type ClientAccount } from './lastfm-testing.ts';

const SCRIPT = fileURLToPath(new URL('./pylast-client.py', import.meta.url));
const T0 = Date.parse('2025-05-01T12:00:00Z') / 1000;

/**
 * Debian's python3-pylast (4.1) installs for the system interpreter, which another `python3` (pyenv,
 * a virtualenv) may shadow on PATH: the first of the two that imports pylast runs the client. With
 * neither, the test is skipped on a workstation and fails in CI, where it must run.
 */
const python = ['python3', '/usr/bin/python3'].find((candidate) => spawnSync(candidate, ['-c', 'import pylast']).status === 0);
const missing = python ? undefined : 'python3 with pylast is not installed (Debian: apt-get install python3-pylast)';
const skip = missing && process.env.CI !== 'true' ? missing : false;

// A real client's round trips: the methods' reads and writes run on both backends in the Last.fm suites.
describeWithApp(
  'Last.fm 2.0 through pylast, a Python client',
  (app) => {
    let gina: ClientAccount;

    before(async () => {
      gina = await createClientAccount(app(), 'pylast-gina');
    });

    test("pylast's default sign-in (authToken, an API key as the password), now playing, scrobbles, love, and its reads", { skip }, async () => {
      if (!python) assert.fail(missing);
      const config = { host: new URL(app().scrobblerUrl).host, apiKey: gina.key, sharedSecret: gina.sharedSecret, username: gina.handle, timestamp: T0 };
      const { stdout } = await promisify(execFile)(python, [SCRIPT, JSON.stringify(config)], { timeout: 60_000 });
      const result = JSON.parse(stdout);

      assert.match(result.sessionKey, /^[0-9a-f]{32}$/);
      assert.deepEqual(result.nowPlaying, ['Broadcast', 'Pendulum']);
      assert.equal((await currentNowPlaying(app().ctx, gina.userId))?.submitted.track, 'Pendulum');
      const played = (at: number, title = 'Pendulum') => ['Broadcast', title, 'Haha Sound', String(at)];
      assert.deepEqual(result.recent, [played(T0 + 600, 'Black Cat'), played(T0 + 300), played(T0)]);
      assert.deepEqual(result.loved, [['Broadcast', 'Pendulum']]);
      assert.deepEqual(result.topArtists, [['Broadcast', '3']]);
      assert.deepEqual(result.artistTopTracks, [
        ['Pendulum', 2],
        ['Black Cat', 1],
      ]);
      assert.deepEqual(result.artistTopAlbums, [['Haha Sound', 'Broadcast', 3]]);
      assert.deepEqual(result.trackScrobbles, [String(T0 + 300), String(T0)]);
      assert.deepEqual(result.libraryArtists, [['Broadcast', 3, 0]]);
      assert.equal(result.trackCorrection, 'Black Cat');
      assert.equal(result.artistCorrection, 'Broadcast');
      assert.equal(result.trackPlaycount, 2);
      assert.deepEqual(result.wrongPassword, { status: '4', details: 'Authentication Failed - Invalid username or password' });
    });
  },
  {},
  { storage: 'one' },
);
