import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { exportedListens, unzip } from '../../core/export/testing.ts';
import { runCli, seedEmbeddedDatabase, startServe, stopServe } from '../testing.ts';

/** `earshot export` as a real process: from the running server, and `--direct` from the embedded database. */
describe('earshot export', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-export-cli-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    EARSHOT_DATA_DIR: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    PORT: '0',
  };
  delete env.DATABASE_URL;
  const earshot = (args: string[], input = '') => runCli(env, args, input, home);
  const entries = async (file: string) => unzip(fs.readFileSync(path.join(home, file)));
  // The commands are the point here, not the embedded database's first start.
  before(() => seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  const listen = (i: number) => ({
    listened_at: 1_650_000_000 + i * 600,
    track_metadata: { artist_name: 'Air', track_name: `Track ${i}`, release_name: 'Moon Safari' },
  });
  const plays = Array.from({ length: 5 }, (_, i) => listen(i));

  test('saves the zip from the server under the name it gives, or --out; --direct makes the same archive with no server', async () => {
    const { server, output } = await startServe(env);
    try {
      env.EARSHOT_URL = /API: +(http:\/\/\S+)/.exec(output)![1]!;
      assert.equal((await earshot(['user', 'create', 'exporter'], 'export password 1\n')).status, 0);
      assert.equal((await earshot(['login', 'exporter'], 'export password 1\n')).status, 0);
      fs.writeFileSync(path.join(home, 'history.jsonl'), plays.map((play) => JSON.stringify(play)).join('\n'));
      assert.equal((await earshot(['import', 'history.jsonl'])).status, 0);

      const named = await earshot(['export']);
      assert.equal(named.status, 0, named.stderr);
      const [, file] = /^Saved (earshot_exporter_\d{4}-\d{2}-\d{2}\.zip) \([\d.]+ MiB\); `earshot import \1` reads it back$/m.exec(named.stdout) ?? [];
      assert.ok(file, named.stdout);
      const fromServer = await entries(file);
      assert.deepEqual([...fromServer.keys()].sort(), ['README.txt', 'dislikes.json', 'likes.json', 'listens/2022/4.jsonl', 'playlists.json', 'user.json']);
      assert.equal(JSON.parse(fromServer.get('user.json')!).handle, 'exporter');
      const listens = exportedListens(fromServer);
      assert.deepEqual(
        listens.map((l) => [l.listened_at, l.track_metadata.artist_name, l.track_metadata.track_name, l.track_metadata.release_name]),
        plays.map((p) => [p.listened_at, 'Air', p.track_metadata.track_name, 'Moon Safari']),
      );

      const out = await earshot(['export', '--out', 'mine.zip']);
      assert.equal(out.status, 0, out.stderr);
      assert.match(out.stdout, /^Saved mine\.zip/);
      assert.deepEqual(exportedListens(await entries('mine.zip')), listens);
    } finally {
      await stopServe(server);
    }

    const direct = await earshot(['export', '--direct', '--user', 'exporter', '--out', 'direct.zip']);
    assert.equal(direct.status, 0, direct.stderr);
    const fromDatabase = await entries('direct.zip');
    assert.deepEqual([...fromDatabase.keys()].sort(), [...(await entries('mine.zip')).keys()].sort());
    assert.deepEqual(exportedListens(fromDatabase), exportedListens(await entries('mine.zip')));
    assert.ok(!fs.readdirSync(home).some((name) => name.endsWith('.partial')), 'no half-written file is left');

    const nobody = await earshot(['export', '--direct', '--user', 'nobody']);
    assert.equal(nobody.status, 1);
    assert.match(nobody.stderr, /no user nobody in this database/);
  });
});
