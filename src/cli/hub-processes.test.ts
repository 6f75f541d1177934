/**
 * The hub across real processes: `earshot serve` (A) relays plays out to, and syncs a history in
 * from, another Earshot (B, in this process, as a ListenBrainz server behind a proxy that can hold
 * requests), and its live events cross processes. A is killed with SIGKILL mid-delivery and
 * mid-history, and runs as two processes on one PostgreSQL schema; every play arrives exactly once.
 * The relay and sync in-process tests (src/core/relay, src/core/sync) cover the same leases with an
 * abandoned claim; this is the real death of a process, and short leases and polls set through the
 * environment (EARSHOT_RELAY_*_SECONDS, EARSHOT_SYNC_*_SECONDS) to watch them run out.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { jsonRequest, oneBackend, startTestApp, type TestApp } from '../app/testing.ts';
import { createClientAccount } from '../adapters/lastfm/lastfm-testing.ts';
import { openLiveEvents } from '../app/ops/live-testing.ts';
import { testRedisReachable, TEST_REDIS_URL } from '../app/ops/redis-testing.ts';
import { startRelayProxy, type RelayProxy } from '../core/relay/relay-testing.ts';
import { seedHistory } from '../core/sync/sync-testing.ts';
import { seedEmbeddedDatabase, startServe, stopServe } from './testing.ts';

const baseUrl = process.env.TEST_DATABASE_URL;
if (!baseUrl && process.env.CI === 'true') throw new Error('TEST_DATABASE_URL is not set: CI runs the hub processes test on PostgreSQL');
const redisReachable = await testRedisReachable();

/** A history of a few pages (ListenBrainz pages hold 1000): enough to kill a sync between two. */
const HISTORY = 2_500;
const PAGES = Math.ceil(HISTORY / 1000);
/**
 * The relay and sync leases of A's processes: a held delivery and a page's fetch and store (on a
 * loaded machine) must stay inside one, a killed process's must run out soon.
 */
const LEASE_SECONDS = '4';

/** One `earshot serve` process of A, and how to start it again on the same storage. */
class ServeProcess {
  server: ChildProcess | undefined;
  api = '';
  scrobbler = '';
  constructor(private readonly env: () => Record<string, string>) {}

  async start(): Promise<void> {
    const { server, output } = await startServe(this.env());
    this.server = server;
    const urlAfter = (label: string) => new RegExp(`${label}:\\s+(http://\\S+)`).exec(output)![1]!;
    this.api = urlAfter('API');
    this.scrobbler = urlAfter('Scrobbler');
  }

  get running(): boolean {
    return this.server !== undefined && this.server.exitCode === null && this.server.signalCode === null;
  }

  async kill(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.server!.once('exit', resolve));
    this.server!.kill('SIGKILL');
    await exited;
  }

  stop = () => (this.running ? stopServe(this.server!) : Promise.resolve());
}

/** The variables every A process gets; `storage` names its database. */
function serveEnv(dataDir: string, storage: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    EARSHOT_DATA_DIR: dataDir,
    EARSHOT_SECRET: 'one secret for every process and life of A',
    EARSHOT_SCRYPT_LOG2_N: '12',
    EARSHOT_RATE_LIMITS: 'off',
    PORT: '0',
    EARSHOT_RELAY_POLL_SECONDS: '1',
    EARSHOT_RELAY_LEASE_SECONDS: LEASE_SECONDS,
    EARSHOT_SYNC_POLL_SECONDS: '1',
    EARSHOT_SYNC_LEASE_SECONDS: LEASE_SECONDS,
    ...storage,
  };
}

/** Polls `ready` every 100 ms; fails after 30 s (a bound against hanging, not a timing claim). */
async function until(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (await ready()) return;
    await sleep(100);
  }
  assert.fail(`${what} did not happen within 30 s`);
}

/** A user of A, signed up through its API, with a ListenBrainz token for its scrobbler host. */
async function accountOnA(api: string, handle: string): Promise<{ token: string; key: string }> {
  const signup = await jsonRequest<any>(`${api}/auth/signup`, 'POST', { body: { handle, password: `${handle} password` } });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const created = await call(api, 'app.svc.apikey.createApikey', { name: handle }, signup.body.token);
  return { token: signup.body.token, key: created.key };
}

/** An XRPC procedure on A that must succeed; answers its body. */
async function call(api: string, nsid: string, input: unknown, token: string): Promise<any> {
  const answer = await jsonRequest<any>(`${api}/xrpc/${nsid}`, 'POST', { body: input, token });
  assert.equal(answer.status, 200, `${nsid}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function read(api: string, nsid: string, params: Record<string, string>, token: string): Promise<any> {
  const answer = await jsonRequest<any>(`${api}/xrpc/${nsid}?${new URLSearchParams(params)}`, 'GET', { token });
  assert.equal(answer.status, 200, `${nsid}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Plays `from`..`from + count - 1` of a ListenBrainz batch, each its own song, a minute apart. */
function listens(tag: string, from: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    listened_at: 1_735_725_600 + (from + i) * 60,
    track_metadata: { artist_name: 'Hub Artist', track_name: `${tag} ${from + i}` },
  }));
}

async function submit(scrobbler: string, key: string, payload: unknown[]): Promise<void> {
  const answer = await jsonRequest<any>(`${scrobbler}/1/submit-listens`, 'POST', {
    headers: { authorization: `Token ${key}` },
    body: { listen_type: 'import', payload },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** B's plays of a user, per song title. */
async function playsOnB(b: TestApp, userId: string): Promise<Map<string, number>> {
  const rows = await b.ctx.db
    .selectFrom('scrobbles')
    .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
    .select(['tracks.title', (eb) => eb.fn.countAll<string>().as('n')])
    .where('scrobbles.user_id', '=', userId)
    .groupBy('tracks.title')
    .execute();
  return new Map(rows.map((row) => [row.title, Number(row.n)]));
}

/** Submit requests that carried the song to B. */
const sends = (proxy: RelayProxy, title: string) =>
  proxy.seen.filter(({ line, body }) => line.includes('submit-listens') && body.includes(`"${title}"`)).length;

/** A relay target on A for a new user of A, at a new account of B (behind a new proxy), ListenBrainz-style. */
async function relayToB(b: TestApp, proxies: RelayProxy[], api: string, name: string) {
  const proxy = await startRelayProxy(b.scrobblerUrl);
  proxies.push(proxy);
  const atB = await createClientAccount(b, name);
  const user = await accountOnA(api, name);
  const { id } = await call(api, 'app.svc.relay.addTarget', { kind: 'listenbrainz', name: 'B', baseUrl: proxy.url, secret: atB.key }, user.token);
  return { proxy, atB, user, targetId: id as string };
}

/**
 * Kills every process of A with SIGKILL while one delivers a batch of plays to B (held at the
 * proxy), lets the batch reach B after all, starts A again, and checks B ends with each play once:
 * the batch is sent again once the dead sender's lease runs out, and B counts it a duplicate.
 */
async function killedMidDelivery(b: TestApp, proxies: RelayProxy[], processes: ServeProcess[], restart: () => Promise<void>, name: string): Promise<void> {
  const [first] = processes;
  const { proxy, atB, user, targetId } = await relayToB(b, proxies, first!.api, name);
  const plays = listens(name, 0, 25);
  proxy.holdIf = (line) => line.includes('submit-listens');
  await submit(first!.scrobbler, user.key, plays);
  await until('a delivery in flight', () => proxy.holding >= 1);
  await Promise.all(processes.map((serving) => serving.kill()));
  proxy.release();
  await until('the killed delivery at B', async () => (await playsOnB(b, atB.userId)).size === plays.length);

  await restart();
  const status = () => read(first!.api, 'app.svc.relay.getTargetStatus', { id: targetId }, user.token);
  await until('the batch delivered', async () => (await status()).queued === 0);
  const done = await status();
  assert.equal(done.deadLetterCount, 0);
  assert.ok(done.lastSuccessAt);
  const atBNow = await playsOnB(b, atB.userId);
  for (const { track_metadata: play } of plays) {
    assert.equal(atBNow.get(play.track_name), 1, `${play.track_name} at B`);
    // Once by the killed sender, once by the restarted one after the lease ran out.
    assert.equal(sends(proxy, play.track_name), 2, play.track_name);
  }
  assert.equal(atBNow.size, plays.length);
}

const proxies: RelayProxy[] = [];
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `earshot-hub-${name}-`));
  dirs.push(dir);
  return dir;
};

// The two suites (not their tests) run side by side: their processes mostly wait (on leases, polls,
// a start), and each has its own accounts at B.
describe('the hub across real processes', { concurrency: true }, () => {
  let b: TestApp;
  before(async () => {
    b = await startTestApp(oneBackend());
    // The history A syncs in by username.
    const history = await createClientAccount(b, 'history');
    await seedHistory(b, history.userId, HISTORY);
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await b?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('A on the embedded database, relaying to B', { concurrency: 1 }, () => {
    const dataDir = tempDir('pglite');
    // One process: a held delivery never waits on another, so the lease can be shorter still.
    const a = new ServeProcess(() => serveEnv(dataDir, { EARSHOT_RELAY_LEASE_SECONDS: '2' }));
    before(async () => {
      await seedEmbeddedDatabase(dataDir);
      await a.start();
    });
    after(() => a.stop());

    test('killed with SIGKILL mid-delivery and started again, A has B hold each play exactly once', () =>
      killedMidDelivery(b, proxies, [a], () => a.start(), 'lite'));
  });

  // One test after another: they share the processes, and kill them.
  describe('two A processes on one PostgreSQL schema', { concurrency: 1, skip: !baseUrl && 'needs TEST_DATABASE_URL' }, () => {
    const schema = `earshot_hub_${process.pid}_${randomBytes(3).toString('hex')}`;
    const databaseUrl = `${baseUrl}${baseUrl?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
    const redisPrefix = `${schema}:`;
    /** Started without Redis (live events over PostgreSQL NOTIFY); after the first kill, with it. */
    let redis = false;
    const processes = ['one', 'two'].map((name) => {
      const dataDir = tempDir(name);
      return new ServeProcess(() =>
        serveEnv(dataDir, { DATABASE_URL: databaseUrl, ...(redis ? { REDIS_URL: TEST_REDIS_URL, EARSHOT_REDIS_PREFIX: redisPrefix } : {}) }),
      );
    });
    const [a1, a2] = processes as [ServeProcess, ServeProcess];

    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    before(async () => {
      await admin(`create schema ${schema}`);
      // Both on the empty schema at once: the migrations run once.
      await Promise.all(processes.map((serving) => serving.start()));
    });
    after(async () => {
      await Promise.all(processes.map((serving) => serving.stop()));
      await admin(`drop schema if exists ${schema} cascade`);
      if (!redisReachable) return;
      const client = new Redis(TEST_REDIS_URL);
      const keys = await client.keys(`${redisPrefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    });

    /** A play submitted to one process reaches the live events stream of a client of the other. */
    async function liveAcross(tag: string): Promise<void> {
      const user = await accountOnA(a1.api, `live${tag}`);
      const stream = await openLiveEvents(`${a2.api}/events`);
      try {
        await submit(a1.scrobbler, user.key, listens(`Live ${tag}`, 0, 1));
        const play = await stream.next((event) => event.type === 'scrobble' && event.data.title === `Live ${tag} 0`);
        assert.equal(play.data.artist, 'Hub Artist');
      } finally {
        stream.close();
      }
    }

    test("live events: a play submitted to one process reaches a client of the other's /events (PostgreSQL NOTIFY)", () => liveAcross('notify'));

    test('both processes deliver to B at once, each play exactly once', async () => {
      const { proxy, atB, user, targetId } = await relayToB(b, proxies, a1.api, 'both');
      proxy.holdIf = (line) => line.includes('submit-listens');
      const firstHalf = listens('Both', 0, 10);
      await submit(a1.scrobbler, user.key, firstHalf);
      await until('a first delivery in flight', () => proxy.holding >= 1);
      // The sender holding the first batch waits on it: the plays submitted now are the other process's to send.
      const secondHalf = listens('Both', 10, 10);
      await submit(a2.scrobbler, user.key, secondHalf);
      await until('a second delivery in flight, from the other process', () => proxy.holding >= 2);
      proxy.release();
      await until('every play delivered', async () => (await read(a2.api, 'app.svc.relay.getTargetStatus', { id: targetId }, user.token)).queued === 0);
      const atBNow = await playsOnB(b, atB.userId);
      for (const { track_metadata: play } of [...firstHalf, ...secondHalf]) {
        assert.equal(atBNow.get(play.track_name), 1, `${play.track_name} at B`);
        assert.equal(sends(proxy, play.track_name), 1, play.track_name);
      }
    });

    test('killed with SIGKILL mid-delivery (both processes) and started again, A has B hold each play exactly once', () =>
      killedMidDelivery(
        b,
        proxies,
        processes,
        async () => {
          redis = redisReachable;
          await Promise.all(processes.map((serving) => serving.start()));
        },
        'pg',
      ));

    test(
      "live events: a play submitted to one process reaches a client of the other's /events (Redis)",
      { skip: !redisReachable && `needs Redis at ${TEST_REDIS_URL}` },
      () => liveAcross('redis'),
    );

    test('a history synced in by username, killed with SIGKILL mid-history, resumes where it was and ends with every play once', async () => {
      const proxy = await startRelayProxy(b.scrobblerUrl);
      proxies.push(proxy);
      const user = await accountOnA(a1.api, 'syncer');
      // The second page is held: the first is committed, the kill lands between the two. Told by its
      // cursor, not by counting requests: a runner that loses its lease may ask for the first page twice.
      const cursorOf = (line: string) => new URL(line.split(' ')[1]!, 'http://b').searchParams.get('max_ts');
      let firstPage: string | null | undefined;
      let held = false;
      proxy.holdIf = (line) => {
        if (!line.includes('/listens?') || held) return false;
        if (firstPage === undefined) firstPage = cursorOf(line);
        held = cursorOf(line) !== firstPage;
        return held;
      };
      const { id } = await call(a1.api, 'app.svc.sync.addSource', { kind: 'listenbrainz', username: 'history', baseUrl: proxy.url }, user.token);
      await until('the second page asked for', () => proxy.holding === 1);
      await Promise.all(processes.map((serving) => serving.kill()));
      proxy.release();

      await a1.start();
      const status = () => read(a1.api, 'app.svc.sync.getSourceStatus', { id }, user.token);
      await until('the history synced', async () => (await status()).historyDoneAt !== null);
      const done = await status();
      assert.deepEqual(
        { state: done.state, fetched: done.fetched, stored: done.stored, duplicate: done.duplicate, ignored: done.ignored },
        { state: 'incremental', fetched: HISTORY, stored: HISTORY, duplicate: 0, ignored: 0 },
      );
      const count = await jsonRequest<any>(`${a1.scrobbler}/1/user/syncer/listen-count`, 'GET');
      assert.equal(count.body.payload.count, HISTORY);
      // Resumed at the page it was killed on: the committed first page was not stored again (no
      // duplicate above, and fetched is the history once), and the interrupted page was asked for
      // again after the restart. How often a page is asked for is not a measure of it: a runner that
      // loses its lease (the source's first run, started by addSource, beside the job's) asks for a
      // page and lets it go uncommitted.
      const pageRequests = proxy.seen.filter(({ line }) => line.includes('/listens?')).map(({ line }) => cursorOf(line));
      assert.equal(new Set(pageRequests).size, PAGES);
      const interrupted = pageRequests.find((page) => page !== pageRequests[0]);
      assert.ok(pageRequests.filter((page) => page === interrupted).length >= 2, 'the page the kill interrupted is fetched again');
    });
  });
});
