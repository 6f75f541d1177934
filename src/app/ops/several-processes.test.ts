/**
 * Two `earshot serve` processes on one PostgreSQL database, as a scaled-out deployment runs them:
 * they start together on an empty database (migrations once), share sign-ins, and every write
 * path sent through both at once keeps every play exactly once.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { ChildProcess } from 'node:child_process';
import { startServe, stopServe } from '../../cli/testing.ts';
import { loadConfig } from '../../toolkit/config.ts';
import { saveConnection } from '../../core/providers/connections.ts';
import { startFakeMusicstream, type FakeMusicstream } from '../../core/providers/musicstream/fake.ts';
import { openAppContext, type OwnedAppContext } from '../server.ts';
import { jsonRequest } from '../testing.ts';
import { elapsePlayback } from '../../core/library/playback-testing.ts';
import { testRedisReachable, TEST_REDIS_URL } from './redis-testing.ts';

const baseUrl = process.env.TEST_DATABASE_URL;
if (!baseUrl && process.env.CI === 'true') throw new Error('TEST_DATABASE_URL is not set: CI runs the several-processes test on PostgreSQL');

interface Running {
  server: ChildProcess;
  api: string;
  scrobbler: string;
}

const urlAfter = (output: string, label: string) => output.match(new RegExp(`${label}:\\s+(http://\\S+)`))![1]!;

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A listen of song `n`, `n` minutes after a fixed hour. */
function lbListen(n: number) {
  return { listened_at: 1_735_725_600 + n * 60, track_metadata: { artist_name: `Artist ${n % 7}`, track_name: `Song ${n}`, release_name: `Album ${n % 5}` } };
}

function importListen(n: number) {
  const listenedAt = new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString();
  return { artist: `Imported ${n % 3}`, title: `Imported song ${n}`, listenedAt, submitted: { n } };
}

const redisReachable = await testRedisReachable();

describe('two server processes on one PostgreSQL', {
  skip: (!baseUrl && 'needs TEST_DATABASE_URL') || (!redisReachable && `needs Redis at ${TEST_REDIS_URL}`),
}, () => {
  const database = `earshot_procs_${process.pid}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(baseUrl ?? 'postgres://x/'), { pathname: `/${database}` }).toString();
  const redisPrefix = `${database}:`;
  const dirs: string[] = [];
  const processes: Running[] = [];
  let musicstream: FakeMusicstream;
  let ctx: OwnedAppContext;
  let token: string;
  let key: string;
  let did: string;

  const env = (dataDir: string): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: databaseUrl,
    EARSHOT_DATA_DIR: dataDir,
    EARSHOT_SECRET: 'one secret shared by every process of this deployment',
    EARSHOT_SCRYPT_LOG2_N: '12',
    PORT: '0',
    MUSICSTREAM_POLL_SECONDS: '10',
    REDIS_URL: TEST_REDIS_URL,
    EARSHOT_REDIS_PREFIX: redisPrefix,
    EARSHOT_RATE_LIMIT_SIGNIN: '3',
    MUSICSTREAM_CLIENT_ID: musicstream.config.clientId,
    MUSICSTREAM_CLIENT_SECRET: musicstream.config.clientSecret,
    MUSICSTREAM_AUTHORIZE_URL: musicstream.config.authorizeUrl,
    MUSICSTREAM_TOKEN_URL: musicstream.config.tokenUrl,
    MUSICSTREAM_API_URL: musicstream.config.apiUrl,
  });

  before(async () => {
    await withAdmin(baseUrl!, (admin) => admin.query(`create database ${database}`));
    musicstream = await startFakeMusicstream({ clientId: 'earshot-test', clientSecret: 'test-secret' });
    const started = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `earshot-proc-${name}-`));
        dirs.push(dataDir);
        const { server, output } = await startServe(env(dataDir));
        return { server, api: urlAfter(output, 'API'), scrobbler: urlAfter(output, 'Scrobbler') };
      }),
    );
    processes.push(...started);
    ctx = await openAppContext(loadConfig(env(dirs[0]!)));
  });

  after(async () => {
    await Promise.all(processes.map(({ server }) => stopServe(server)));
    await ctx?.close();
    await musicstream?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await withAdmin(baseUrl!, (admin) => admin.query(`drop database if exists ${database} with (force)`));
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const [a, b] = [() => processes[0]!, () => processes[1]!];

  test('both started on the empty database: the migrations ran once, and a sign-up on one signs in on the other', async () => {
    const signup = await jsonRequest<any>(`${a().api}/auth/signup`, 'POST', { body: { handle: 'alice', password: 'alice password' } });
    assert.equal(signup.status, 201);
    did = signup.body.did;
    const login = await jsonRequest<any>(`${b().api}/auth/login`, 'POST', { body: { identifier: 'alice', password: 'alice password' } });
    assert.equal(login.status, 200);
    token = login.body.token;
    const created = await jsonRequest<any>(`${a().api}/xrpc/app.svc.apikey.createApikey`, 'POST', { body: { name: 'both processes' }, token });
    assert.equal(created.status, 200);
    key = created.body.key;
  });

  test('wrong passwords spread over both processes spend one budget (REDIS_URL)', async () => {
    const attempt = (api: string) => jsonRequest<any>(`${api}/auth/login`, 'POST', { body: { identifier: 'alice', password: 'not her password' } });
    for (const { api } of [a(), b(), a()]) assert.equal((await attempt(api)).status, 401);
    const refused = await attempt(b().api);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'RateLimitExceeded');
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });

  test('every ListenBrainz batch sent to both processes at once is stored once', async () => {
    const batches = Array.from({ length: 10 }, (_, batch) => Array.from({ length: 20 }, (_, i) => lbListen(batch * 20 + i)));
    const answers = await Promise.all(
      batches.flatMap((payload) =>
        [a(), b()].map(({ scrobbler }) =>
          jsonRequest<any>(`${scrobbler}/1/submit-listens`, 'POST', { body: { listen_type: 'import', payload }, headers: { authorization: `Token ${key}` } }),
        ),
      ),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    assert.equal(await playCount(), 200);
  });

  test('an import batch sent to both processes advances the checkpoint once; the next batch goes on at the other', async () => {
    const fingerprint = randomBytes(32).toString('hex');
    const batch = (from: number, complete: boolean) => ({
      fingerprint,
      format: 'listenbrainz',
      from,
      records: 50,
      listens: Array.from({ length: 50 }, (_, i) => importListen(from + i)),
      complete,
    });
    const first = await Promise.all(
      [a(), b()].map(({ api }) => jsonRequest<any>(`${api}/xrpc/app.svc.scrobble.importListens`, 'POST', { body: batch(0, false), token })),
    );
    assert.deepEqual(first.map((answer) => answer.status).sort(), [200, 409]);
    assert.equal(first.find((answer) => answer.status === 409)!.body.error, 'CheckpointMismatch');
    const second = await jsonRequest<any>(`${b().api}/xrpc/app.svc.scrobble.importListens`, 'POST', { body: batch(50, true), token });
    assert.equal(second.status, 200);
    assert.deepEqual(
      { ...second.body.status, completedAt: undefined },
      {
        fingerprint,
        format: 'listenbrainz',
        recordsConsumed: 100,
        stored: 100,
        duplicate: 0,
        ignored: 0,
        complete: true,
        completedAt: undefined,
      },
    );
    assert.equal(await playCount(), 300);
  });

  test('the streaming poller runs in both processes, but each polled play is recorded once', async () => {
    const now = Date.now();
    for (let i = 0; i < 5; i++) musicstream.addRecentPlay({ title: `Streamed ${i}`, artist: 'Streamer', playedAt: new Date(now - (10 - i) * 60_000) });
    const { id: userId } = await ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow();
    const grant = musicstream.oauth.grant();
    await saveConnection(
      ctx,
      userId,
      'musicstream',
      { accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresAt: new Date(now + grant.expiresIn * 1000) },
      { id: 'acct-1', name: 'fake-user' },
    );
    await waitFor(async () => (await playCount()) === 305);
    // Another polling round of both processes (10 s apart, the shortest allowed): nothing arrives twice.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    assert.equal(await playCount(), 305);
  });

  test('the statistics fold runs in both processes and counts every play once; both answer the same', async () => {
    await waitFor(async () => (await rows('stats_queue')) === 0);
    const profiles = await Promise.all([a(), b()].map(({ api }) => jsonRequest<any>(`${api}/xrpc/app.svc.actor.getProfile?did=alice`, 'GET')));
    for (const profile of profiles) assert.equal(profile.body.scrobblesCount, 305);
    const songs = await jsonRequest<any>(`${b().api}/xrpc/app.svc.actor.getActorSongs?did=alice&limit=100`, 'GET');
    assert.equal(songs.status, 200);
    assert.ok(songs.body.songs.every((song: { playCount: number }) => song.playCount === 1));
  });

  test('single listens sent to both processes at once (each groups its own commits): every one stored once, the other answer a duplicate', async () => {
    const listens = Array.from({ length: 30 }, (_, i) => lbListen(1000 + i));
    const answers = await Promise.all(
      listens.map((listen) =>
        Promise.all(
          [a(), b()].map(({ scrobbler }) =>
            jsonRequest<any>(`${scrobbler}/1/submit-listens`, 'POST', {
              body: { listen_type: 'single', payload: [listen] },
              headers: { authorization: `Token ${key}` },
            }),
          ),
        ),
      ),
    );
    for (const pair of answers) {
      assert.deepEqual(
        pair.map((answer) => answer.status),
        [200, 200],
      );
      assert.deepEqual(pair.map((answer) => answer.body.payload.stored).sort(), [0, 1]);
      assert.deepEqual(pair.map((answer) => answer.body.payload.duplicate).sort(), [0, 1]);
    }
    assert.equal(await playCount(), 335);
  });

  test("a Subsonic player's playback reports alternating between the processes: one session, one play with its listening time", async () => {
    // A listener of their own: alice's sign-ins are locked out by the test above.
    const signup = await jsonRequest<any>(`${a().api}/auth/signup`, 'POST', { body: { handle: 'runner', password: 'runner password' } });
    const created = await jsonRequest<any>(`${b().api}/xrpc/app.svc.apikey.createApikey`, 'POST', { body: { name: 'player' }, token: signup.body.token });
    const runnerKey: string = created.body.key;
    const song = {
      listened_at: 1_735_725_600,
      track_metadata: { artist_name: 'Relay Runner', track_name: 'Baton', additional_info: { duration_ms: 200_000 } },
    };
    const stored = await jsonRequest<any>(`${a().scrobbler}/1/submit-listens`, 'POST', {
      body: { listen_type: 'single', payload: [song] },
      headers: { authorization: `Token ${runnerKey}` },
    });
    const songId: string = stored.body.payload.listens[0].recording_msid;
    const user = await ctx.db.selectFrom('users').select('id').where('handle', '=', 'runner').executeTakeFirstOrThrow();
    const report = async ({ api }: Running, state: string, positionMs: number) => {
      const query = new URLSearchParams({
        u: 'runner',
        p: runnerKey,
        c: 'two-doors',
        f: 'json',
        mediaId: songId,
        mediaType: 'song',
        positionMs: String(positionMs),
        state,
      });
      const answer = await jsonRequest<any>(`${api}/rest/reportPlayback?${query}`, 'GET');
      assert.equal(answer.body['subsonic-response'].status, 'ok', JSON.stringify(answer.body));
    };
    await report(a(), 'starting', 0);
    await report(b(), 'playing', 0);
    await elapsePlayback(ctx.db, user.id, 80_000);
    await report(a(), 'paused', 80_000);
    await report(b(), 'playing', 80_000);
    await elapsePlayback(ctx.db, user.id, 40_000);
    await report(a(), 'stopped', 120_000);
    const plays = await ctx.db.selectFrom('scrobbles').select('played_ms').where('user_id', '=', user.id).where('source', '=', 'subsonic').execute();
    assert.deepEqual(plays, [{ played_ms: 120_000 }]);
  });

  async function rows(table: 'scrobbles' | 'stats_queue'): Promise<number> {
    const row = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  const playCount = () => rows('scrobbles');
});

/** Polls `ready` every 100 ms; fails after 30 s (a bound against hanging, not a timing claim). */
async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the condition did not hold within 30 s');
}
