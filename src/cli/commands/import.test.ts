import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startServe, stopServe } from '../testing.ts';

interface Storage {
  name: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The embedded database always; a schema of the TEST_DATABASE_URL server too when it is set. */
function storages(): Storage[] {
  const embedded: Storage = { name: 'pglite', env: {}, drop: async () => {} };
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return [embedded];
  const schema = `earshot_cli_import_${process.pid}_${randomBytes(3).toString('hex')}`;
  const server: Storage = {
    name: 'postgres',
    env: { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}` },
    drop: () => adminQuery(url, `drop schema if exists ${schema} cascade`),
  };
  before(() => adminQuery(url, `create schema ${schema}`));
  return [embedded, server];
}

const lbLine = (i: number, artist = 'Air') => JSON.stringify({ listened_at: 1_650_000_000 + i * 300, track_metadata: { artist_name: artist, track_name: `Track ${i % 12}`, release_name: 'Moon Safari' } });

for (const storage of storages()) {
  describe(`earshot import end to end [${storage.name}]`, () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-cli-import-'));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      EARSHOT_DATA_DIR: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      PORT: '0',
      ...storage.env,
    };
    if (!storage.env.DATABASE_URL) delete env.DATABASE_URL;
    let server: ChildProcess;
    const earshot = (args: string[], input = '') => runCli(env, args, input);
    const file = (name: string, content: string) => {
      const target = path.join(home, name);
      fs.writeFileSync(target, content);
      return target;
    };

    before(async () => {
      const started = await startServe(env);
      server = started.server;
      const { output } = started;
      env.EARSHOT_URL = /API: +(http:\/\/\S+)/.exec(output)![1]!;
      assert.equal(earshot(['user', 'create', 'importer'], 'import password 1\n').status, 0);
      assert.equal(earshot(['login', 'importer'], 'import password 1\n').status, 0);
    });

    after(async () => {
      await stopServe(server);
      await storage.drop();
      fs.rmSync(home, { recursive: true, force: true });
    });

    it('imports a ListenBrainz JSONL file with progress, then says a re-run has nothing to do', () => {
      const lines = Array.from({ length: 1200 }, (_, i) => (i === 7 ? lbLine(i, '') : lbLine(i)));
      const export_ = file('listens.jsonl', lines.join('\n') + '\n');
      const first = earshot(['import', 'listenbrainz', export_]);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /Imported .*listens\.jsonl: 1200 records; this run stored 1199, 0 duplicate, 1 ignored\./);
      assert.match(first.stdout, /record 8: no artist/);
      assert.match(first.stderr, /\[#+\] 100% .*stored 1199 +duplicate 0 +ignored 1 +\d+ listens\/s/);
      const again = earshot(['import', 'listenbrainz', export_]);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /already imported completely \(\d{4}-.*\): 1200 records, 1199 stored, 0 duplicate, 1 ignored\. Nothing to do\./);
    });

    it('imports Last.fm CSV and Spotify history; overlapping listens count as duplicates', () => {
      const csv = file('scrobbles.csv', 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\r\n1650000000,"15 Apr 2022, 05:20",Air,,Moon Safari,,Track 0,\r\n1650000300,x,Air,,,,"Track, new",\r\n');
      const lastfm = earshot(['import', 'lastfm', csv]);
      assert.equal(lastfm.status, 0, lastfm.stderr);
      assert.match(lastfm.stdout, /2 records; this run stored 1, 1 duplicate, 0 ignored/);
      const streams = [
        { ts: '2023-01-01T10:04:00Z', ms_played: 240_000, master_metadata_track_name: 'La femme d\'argent', master_metadata_album_artist_name: 'Air', master_metadata_album_album_name: 'Moon Safari', spotify_track_uri: 'spotify:track:2ZyuwVvV6Z3XJaXIFbspeE' },
        { ts: '2023-01-01T10:05:00Z', ms_played: 5_000, master_metadata_track_name: 'Sexy Boy', master_metadata_album_artist_name: 'Air' },
        { ts: '2023-01-01T11:00:00Z', ms_played: 900_000, master_metadata_track_name: null, episode_name: 'A podcast' },
      ];
      const spotify = earshot(['import', 'spotify', file('Streaming_History_Audio_2023.json', JSON.stringify(streams))]);
      assert.equal(spotify.status, 0, spotify.stderr);
      assert.match(spotify.stdout, /3 records; this run stored 1, 0 duplicate, 2 ignored/);
      assert.match(spotify.stdout, /record 2: played for less than 30 seconds\n {2}record 3: a podcast episode, not a track/);
    });

    it('names the file, record and problem for a file of the wrong format; usage errors exit 2', () => {
      const jsonl = file('wrong.jsonl', lbLine(1) + '\n');
      const wrong = earshot(['import', 'spotify', jsonl]);
      assert.equal(wrong.status, 1);
      assert.equal(wrong.stderr.trim(), `earshot: ${jsonl}: record 1: not a JSON array (the file should start with "[")`);
      const missing = earshot(['import', 'lastfm', path.join(home, 'nope.csv')]);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /cannot read .*nope\.csv: no such file/);
      assert.equal(earshot(['import', 'itunes', jsonl]).status, 2);
      assert.equal(earshot(['import', 'lastfm']).status, 2);
    });

    // Last: it stops the server, which owns the embedded database while it runs.
    it('--direct imports into the database while no server runs, sharing the checkpoints', async () => {
      await stopServe(server);
      const export_ = file('direct.jsonl', Array.from({ length: 30 }, (_, i) => lbLine(10_000 + i, 'Massive Attack')).join('\n') + '\n');
      const direct = earshot(['import', 'listenbrainz', export_, '--direct', '--user', 'importer']);
      assert.equal(direct.status, 0, direct.stderr);
      assert.match(direct.stdout, /30 records; this run stored 30, 0 duplicate, 0 ignored/);
      const again = earshot(['import', 'listenbrainz', export_, '--direct']);
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /Nothing to do\./);
      const importedThroughServer = earshot(['import', 'listenbrainz', path.join(home, 'listens.jsonl'), '--direct']);
      assert.match(importedThroughServer.stdout, /1200 records, 1199 stored, 0 duplicate, 1 ignored\. Nothing to do\./);
    });
  });
}
