import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeTestTrack } from '../../core/library/test-music.ts';
import { runCli, seedEmbeddedDatabase, startServe, stopServe } from '../testing.ts';

/** `earshot library scan` and the scan at `earshot serve`, as real processes on an embedded database. */
describe('earshot library scan', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-library-cli-'));
  const music = path.join(home, 'music');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), EARSHOT_DATA_DIR: path.join(home, 'data'), EARSHOT_MUSIC_DIR: music };
  delete env.DATABASE_URL;
  // The commands are the point here, not the embedded database's first start.
  before(() => seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('scans the folder, prints the report, and says what is wrong with a bad folder', async () => {
    await writeTestTrack(music, 'Artist/Album/01.flac', 'flac', { artist: 'CLI Artist', title: 'One' });
    await writeTestTrack(music, 'Artist/Album/02.mp3', 'mp3', { artist: 'CLI Artist', title: 'Two' });
    fs.writeFileSync(path.join(music, 'readme.txt'), 'not music');

    const first = await runCli(env, ['library', 'scan']);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /Scanned .*music in [\d.]+ s: 2 added, 0 updated, 0 removed, 0 unchanged, 3 directories, 1 skipped/);
    assert.match(first.stdout, /skipped readme\.txt: not an audio file/);

    const again = await runCli(env, ['library', 'scan', '--json']);
    assert.equal(again.status, 0, again.stderr);
    const report = JSON.parse(again.stdout);
    assert.equal(report.status, 'scanned');
    assert.equal(report.unchanged, 2);
    assert.equal(report.root, music);

    const unset = await runCli({ ...env, EARSHOT_MUSIC_DIR: '' }, ['library', 'scan']);
    assert.equal(unset.status, 1);
    assert.match(unset.stderr, /EARSHOT_MUSIC_DIR is not set/);
    const missing = await runCli({ ...env, EARSHOT_MUSIC_DIR: path.join(home, 'nowhere') }, ['library', 'scan']);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /EARSHOT_MUSIC_DIR is .*nowhere, which does not exist/);
  });

  test('serve scans the folder in the background after it starts listening', { timeout: 60_000 }, async () => {
    await writeTestTrack(music, 'Artist/Album/03.ogg', 'ogg', { artist: 'CLI Artist', title: 'Three' });
    const { server, output } = await startServe({ ...env, PORT: '0' });
    try {
      let log = output;
      server.stdout!.on('data', (chunk) => (log += chunk));
      while (!log.includes('Library:') && server.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(log, /Library: Scanned .* 1 added, 0 updated, 0 removed, 2 unchanged/);
    } finally {
      await stopServe(server);
    }
  });
});
