/**
 * Earshot's real processes behind PgBouncer, as an operator runs them: `earshot serve` and the CLI
 * with DATABASE_URL at the pooler. In transaction mode (each transaction may run on another server
 * connection): two servers started together on an empty database, submits over ListenBrainz and
 * Last.fm to both, a CLI import beside them, the fold, Wrapped, and the CLI commands that work on
 * the database. In session mode, briefly: one server, a submit and an import. Each mode has its own
 * PgBouncer in front of a database of its own (src/toolkit/db/pgbouncer-testing.ts). Statement mode,
 * which Earshot cannot run in, is refused at start in one line.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { migrationFiles } from '../toolkit/db/migrate.ts';
import { startPgbouncer, pgbouncerMissing, type Pgbouncer, type PoolMode } from '../toolkit/db/pgbouncer-testing.ts';
import { exportedListens, unzip } from '../core/export/testing.ts';
import { lastfmRead, mobileSession, scrobblePlays } from '../adapters/lastfm/lastfm-testing.ts';
import { jsonRequest } from '../app/testing.ts';
import { runCli, startServe, stopServe, type CliEnv } from './testing.ts';

const baseUrl = process.env.TEST_DATABASE_URL;
if (!baseUrl && process.env.CI === 'true') throw new Error('TEST_DATABASE_URL is not set: CI runs the PgBouncer end-to-end test on PostgreSQL');
const missing = baseUrl ? pgbouncerMissing() : 'needs TEST_DATABASE_URL';

interface Host {
  server: ChildProcess;
  api: string;
  scrobblerUrl: string;
}

const urlAfter = (output: string, label: string) => output.match(new RegExp(`${label}:\\s+(http://\\S+)`))![1]!;

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** `count` ListenBrainz listens from song `from` on, a minute apart in 2024, as the API and export files shape them. */
function lbListens(label: string, from: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    listened_at: 1_704_067_200 + (from + i) * 60,
    track_metadata: { artist_name: `${label} artist ${(from + i) % 4}`, track_name: `${label} song ${from + i}` },
  }));
}

/** A ListenBrainz export file (JSON Lines) of `count` listens, for `earshot import`. */
function lbExportFile(dir: string, label: string, count: number): string {
  const file = path.join(dir, `${label}.jsonl`);
  fs.writeFileSync(
    file,
    lbListens(label, 0, count)
      .map((listen) => `${JSON.stringify(listen)}\n`)
      .join(''),
  );
  return file;
}

/**
 * A database of its own behind a PgBouncer of its own in `mode`, for one suite: its processes get
 * DATABASE_URL at the pooler; the checks read the database directly, past it.
 */
function pooled(mode: PoolMode) {
  const database = `earshot_pgb_${mode}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const directUrl = Object.assign(new URL(baseUrl ?? 'postgres://x/'), { pathname: `/${database}` }).toString();
  const dirs: string[] = [];
  const hosts: Host[] = [];
  let bouncer: Pgbouncer;

  before(async () => {
    await query(baseUrl!, `create database ${database}`);
    bouncer = await startPgbouncer(baseUrl!, mode);
  });

  after(async () => {
    await Promise.all(hosts.map(({ server }) => stopServe(server)));
    await bouncer?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await query(baseUrl!, `drop database if exists ${database} with (force)`);
  });

  const env = (): CliEnv => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `earshot-pgb-${mode}-`));
    dirs.push(dataDir);
    return {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: bouncer.url(database),
      EARSHOT_DATA_DIR: dataDir,
      EARSHOT_SECRET: 'one secret shared by every process of this deployment',
      EARSHOT_SCRYPT_LOG2_N: '12',
      PORT: '0',
    };
  };

  return {
    /** A directory removed after the suite. */
    dir: () => env().EARSHOT_DATA_DIR!,
    /** `count` servers started at the same moment. */
    serve: (count: number) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const { server, output } = await startServe(env());
          const host = { server, api: urlAfter(output, 'API'), scrobblerUrl: urlAfter(output, 'Scrobbler') };
          hosts.push(host);
          return host;
        }),
      ),
    cli: (args: string[], input = '') => runCli(env(), args, input),
    count: async (table: 'scrobbles' | 'stats_queue') => Number((await query<{ n: string }>(directUrl, `select count(*) as n from ${table}`))[0]!.n),
    migrations: async () => (await query<{ version: string }>(directUrl, 'select version from schema_migrations order by version')).map((row) => row.version),
  };
}

/** A new account on `host` with an API key, as a scrobbler client is set up. */
async function account(host: Host, handle: string) {
  const password = `${handle} password`;
  const signup = await jsonRequest<any>(`${host.api}/auth/signup`, 'POST', { body: { handle, password } });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const created = await jsonRequest<any>(`${host.api}/xrpc/app.svc.apikey.createApikey`, 'POST', { body: { name: 'pgbouncer' }, token: signup.body.token });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { handle, password, token: signup.body.token as string, key: created.body.key as string, sharedSecret: created.body.sharedSecret as string };
}

async function submitListens(host: Host, key: string, payload: unknown[]): Promise<void> {
  const answer = await jsonRequest<any>(`${host.scrobblerUrl}/1/submit-listens`, 'POST', {
    body: { listen_type: 'import', payload },
    headers: { authorization: `Token ${key}` },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** `earshot import` of a ListenBrainz file on the database (`--direct`): a CLI process of its own through the pooler. */
async function importFile(deployment: ReturnType<typeof pooled>, handle: string, file: string, records: number): Promise<void> {
  const imported = await deployment.cli(['import', 'listenbrainz', file, '--direct', '--user', handle]);
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, new RegExp(`: ${records} records; this run stored ${records}, 0 duplicate, 0 ignored\\.`));
}

/** Polls `ready` every 100 ms; fails after 30 s (a bound against hanging, not a timing claim). */
async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the condition did not hold within 30 s');
}

describe('earshot behind PgBouncer in transaction mode', { skip: missing }, () => {
  const deployment = pooled('transaction');
  let hosts: Host[];
  let alice: Awaited<ReturnType<typeof account>>;
  // 2 × 10 ListenBrainz listens, 2 × 3 Last.fm scrobbles, 2 × 5 listens during the import, 30 imported.
  const TOTAL = 20 + 6 + 10 + 30;

  before(async () => {
    hosts = await deployment.serve(2);
  });

  test('two servers started at once through the pooler applied each migration once', async () => {
    assert.deepEqual(await deployment.migrations(), migrationFiles());
  });

  test('ListenBrainz submits and Last.fm scrobbles to each server store every play once', async () => {
    const [a, b] = hosts as [Host, Host];
    alice = await account(a, 'alice');
    await Promise.all([submitListens(a, alice.key, lbListens('LB', 0, 10)), submitListens(b, alice.key, lbListens('LB', 10, 10))]);
    // A session key made on one server scrobbles on the other: sessions are rows, not connection state.
    const sessionKey = await mobileSession(b, alice);
    const plays = (from: number) =>
      Array.from({ length: 3 }, (_, i) => ({ artist: 'Last.fm artist', track: `Last.fm song ${from + i}`, timestamp: 1_717_200_000 + (from + i) * 60 }));
    await Promise.all([scrobblePlays(a, alice, sessionKey, plays(0)), scrobblePlays(b, alice, sessionKey, plays(3))]);
    assert.equal(await deployment.count('scrobbles'), 26);
  });

  test('`earshot import` through the pooler, while both servers take submissions, stores exactly the file', async () => {
    const [a, b] = hosts as [Host, Host];
    const file = lbExportFile(deployment.dir(), 'Imported', 30);
    await Promise.all([
      importFile(deployment, 'alice', file, 30),
      submitListens(a, alice.key, lbListens('During', 0, 5)),
      submitListens(b, alice.key, lbListens('During', 5, 5)),
    ]);
    assert.equal(await deployment.count('scrobbles'), TOTAL);
  });

  test("the servers' fold counts every play once: profile, Wrapped and Last.fm's recent tracks on both", async () => {
    await waitFor(async () => (await deployment.count('stats_queue')) === 0);
    for (const host of hosts) {
      const profile = await jsonRequest<any>(`${host.api}/xrpc/app.svc.actor.getProfile?did=alice`, 'GET');
      assert.equal(profile.body.scrobblesCount, TOTAL);
      const wrapped = await jsonRequest<any>(`${host.api}/xrpc/app.svc.stats.getWrapped?did=alice&year=2024&tz=UTC`, 'GET');
      assert.equal(wrapped.status, 200, JSON.stringify(wrapped.body));
      assert.equal(wrapped.body.totalScrobbles, TOTAL);
      const recent = await lastfmRead(host, alice, { method: 'user.getRecentTracks', user: 'alice', limit: '1', format: 'json' });
      assert.equal(recent.body.recenttracks['@attr'].total, String(TOTAL));
    }
  });

  test('CLI commands on the database through the pooler while the servers run: stats rebuild and export', async () => {
    const out = path.join(deployment.dir(), 'alice.zip');
    const [rebuilt, exported] = await Promise.all([
      deployment.cli(['stats', 'rebuild']),
      deployment.cli(['export', '--direct', '--user', 'alice', '--out', out]),
    ]);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, new RegExp(`^Rebuilt the rollups from ${TOTAL} plays`));
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(exportedListens(await unzip(fs.readFileSync(out))).length, TOTAL);
    const wrapped = await jsonRequest<any>(`${hosts[1]!.api}/xrpc/app.svc.stats.getWrapped?did=alice&year=2024&tz=UTC`, 'GET');
    assert.equal(wrapped.body.totalScrobbles, TOTAL);
  });
});

describe('earshot behind PgBouncer in session mode', { skip: missing }, () => {
  const deployment = pooled('session');

  test('a server migrates through the pooler; a ListenBrainz submit and a CLI import beside it store every play once', async () => {
    const [host] = (await deployment.serve(1)) as [Host];
    assert.deepEqual(await deployment.migrations(), migrationFiles());
    const bo = await account(host, 'bo');
    const file = lbExportFile(deployment.dir(), 'Imported', 10);
    await Promise.all([importFile(deployment, 'bo', file, 10), submitListens(host, bo.key, lbListens('LB', 0, 10))]);
    assert.equal(await deployment.count('scrobbles'), 20);
    const profile = await jsonRequest<any>(`${host.api}/xrpc/app.svc.actor.getProfile?did=bo`, 'GET');
    assert.equal(profile.body.scrobblesCount, 20);
  });
});

describe('earshot behind PgBouncer in statement mode', { skip: missing }, () => {
  const deployment = pooled('statement');

  test('serve and a command on the database refuse to start, in one line naming pool_mode', async () => {
    const started = await Promise.all([deployment.cli(['serve', '--quiet']), deployment.cli(['user', 'create', 'cy', '--direct'], 'cy password\n')]);
    for (const { status, stderr } of started) {
      assert.equal(status, 1, stderr);
      assert.match(
        stderr,
        /^earshot: the PostgreSQL server at \S+ refused: transaction blocks not allowed in statement pooling mode \(08P01\): set pool_mode = transaction \(or session\)[^\n]*\n$/,
      );
    }
    assert.equal(await deployment.count('scrobbles').catch((error: Error) => error.message), 'relation "scrobbles" does not exist');
  });
});
