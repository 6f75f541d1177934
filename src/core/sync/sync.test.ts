import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, testBackends, type TestApp } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { ingestListens } from '../scrobbling/ingest.ts';
import { loadConfig } from '../../toolkit/config.ts';
import { sealTargetSecret } from '../relay/targets.ts';
import { claimSource, runClaimed, startPass, syncDue, syncStep, LeaseLost, type SyncOptions } from './runner.ts';
import { originTarget } from './origin.ts';
import { NEWEST, seedHistory } from './sync-testing.ts';

/**
 * The history on B: 50k plays where the run is on PostgreSQL; PGlite (one connection, in this
 * process beside both apps) takes a smaller one, still five ListenBrainz pages and 25 Last.fm pages
 * so a run dies mid-history, so the regular suite stays quick; SYNC_TEST_PLAYS sets both.
 */
const playsFor = (backend: string) => Number(process.env.SYNC_TEST_PLAYS ?? (backend === 'postgres' ? 50_000 : 5_000));
/** A short lease, to watch one run out. */
const FAST: SyncOptions = { leaseMs: 2_000, backoffBaseMs: 60_000, backoffMaxMs: 3_600_000, lookBackMs: 24 * 3_600_000 };

const playCount = async (app: TestApp, userId: string) =>
  Number(
    (
      await app.ctx.db
        .selectFrom('scrobbles')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const queuedFor = async (app: TestApp, targetId: string) =>
  Number(
    (
      await app.ctx.db
        .selectFrom('relay_outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('target_id', '=', targetId)
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const backend of testBackends()) {
  describe(`syncing a history in from another Earshot [${backend.name}]`, () => {
    const plays = playsFor(backend.name);
    let a: TestApp;
    let b: TestApp;
    let bob: ClientAccount;
    let operator: ClientAccount;
    let limiter: http.Server;
    let limiterUrl: string;

    before(async () => {
      b = await startTestApp(backend);
      operator = await createClientAccount(b, 'operator');
      bob = await createClientAccount(b, 'bob');
      await seedHistory(b, bob.userId, plays);
      const lastfm = { apiKey: operator.key, secret: operator.sharedSecret, apiUrl: `${b.scrobblerUrl}/2.0/`, authUrl: `${b.scrobblerUrl}/api/auth/` };
      const defaults = loadConfig({});
      a = await startTestApp(backend, {
        relay: { ...defaults.relay, enabled: false, lastfm },
        sync: { ...defaults.sync, enabled: false, listenbrainzUrl: b.scrobblerUrl },
      });
      // A ListenBrainz that only ever says to slow down.
      limiter = http.createServer((_, response) => response.writeHead(429, { 'retry-after': '600' }).end('{"code":429,"error":"slow down"}'));
      await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
      limiterUrl = `http://127.0.0.1:${(limiter.address() as AddressInfo).port}`;
    });

    after(async () => {
      await a?.close();
      await b?.close();
      limiter?.close();
    });

    async function addSource(token: string, input: Record<string, unknown>): Promise<string> {
      const added = await a.procedure('app.svc.sync.addSource', input, token);
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.equal(added.body.state, 'initial');
      return added.body.id;
    }
    const status = async (token: string, id: string) => (await a.query('app.svc.sync.getSourceStatus', { id }, token)).body;

    /** A relay target on A at B for the user, relaying imports, as if linked to `account`. */
    async function relayTarget(userId: string, kind: 'earshot' | 'lastfm' | 'maloja', account: string, secret: string, importsFrom?: Date): Promise<string> {
      const row = await a.ctx.db
        .insertInto('relay_targets')
        .values({
          user_id: userId,
          kind,
          name: `${kind} ${account}`,
          base_url: kind === 'lastfm' ? null : b.scrobblerUrl,
          account_name: kind === 'lastfm' ? account : null,
          relay_imports: true,
          imports_from: importsFrom ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await a.ctx.db
        .updateTable('relay_targets')
        .set({ secret_sealed: sealTargetSecret(a.ctx, userId, row.id, secret) })
        .where('id', '=', row.id)
        .execute();
      return row.id;
    }

    for (const kind of ['listenbrainz', 'lastfm'] as const) {
      test(`${kind}: the whole history by username, resumed after a runner dies, exact; again adds nothing; never relayed back`, async () => {
        const alice = await createClientAccount(a, `alice-${kind}`);
        // B's history as it is now (an earlier test may have added to it).
        const history = await playCount(b, bob.userId);
        // The same account at B as a relay target (relaying imports: only the origin rule keeps them out)…
        const back =
          kind === 'lastfm' ? await relayTarget(alice.userId, 'lastfm', 'BOB', 'session') : await relayTarget(alice.userId, 'earshot', 'bob', bob.key);
        // …and another target taking imports listened from the newest 10 minutes of the history on.
        const elsewhere = await relayTarget(alice.userId, 'maloja', 'elsewhere', 'k', new Date(NEWEST - 9.5 * 60_000));
        const id = await addSource(alice.token, { kind, username: 'bob', ...(kind === 'listenbrainz' ? { baseUrl: `${b.scrobblerUrl}/1/` } : {}) });

        // A runner takes the source, stores three pages, and dies holding its lease.
        const dying = (await claimSource(a.ctx, FAST))!;
        assert.ok(dying);
        await startPass(a.ctx, dying, FAST);
        const origin = await originTarget(a.ctx, dying.row);
        assert.equal(origin, back);
        for (let i = 0; i < 3; i++) await syncStep(a.ctx, dying, origin, FAST);
        // A full ListenBrainz page leaves its oldest second to the next page (it may go on there).
        const perPage = kind === 'listenbrainz' ? 999 : 200;
        const midway = await status(alice.token, id);
        assert.equal(midway.running, true);
        assert.equal(midway.state, 'initial');
        assert.deepEqual([midway.pass.fetched, midway.pass.expected, midway.stored], [3 * perPage, history, 3 * perPage]);
        assert.equal(await claimSource(a.ctx, FAST), null, 'the lease still holds');

        // The lease runs out; another runner resumes at the cursor.
        await sleep(FAST.leaseMs + 100);
        const second = (await claimSource(a.ctx, FAST))!;
        assert.equal(second.row.id, id);
        const started = performance.now();
        const summary = await runClaimed(a.ctx, second, { ...FAST, leaseMs: 120_000 });
        const seconds = (performance.now() - started) / 1000;
        console.log(`${backend.name} ${kind}: ${summary.stored} plays synced in ${seconds.toFixed(1)} s (${Math.round(summary.stored / seconds)} plays/s)`);
        assert.equal(summary.passDone, true);
        // The dead runner wakes up: its page is not stored.
        await assert.rejects(syncStep(a.ctx, dying, origin, FAST), LeaseLost);

        assert.equal(await playCount(a, alice.userId), history);
        const done = await status(alice.token, id);
        assert.deepEqual(
          [done.state, done.running, done.pass, done.fetched, done.stored, done.duplicate, done.ignored],
          ['incremental', false, null, history, history, 0, 0],
        );
        assert.ok(done.historyDoneAt);
        assert.equal(await queuedFor(a, back), 0, 'nothing goes back where it came from');
        // The window holds the history's newest 10 and what was played on B since.
        assert.equal(await queuedFor(a, elsewhere), 10 + history - plays, 'synced plays count as imports for other targets');

        // Again: nothing new. Then a new play at B, and the next pass brings it alone.
        assert.equal((await a.procedure('app.svc.sync.runNow', { id }, alice.token)).status, 200);
        assert.equal(await syncDue(a.ctx, FAST), 0);
        assert.equal(await playCount(a, alice.userId), history);
        await ingestListens(
          b.ctx,
          bob.userId,
          [{ artist: 'New Artist', title: `New for ${kind}`, listenedAt: new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000) }],
          'api',
        );
        await a.procedure('app.svc.sync.runNow', { id }, alice.token);
        assert.equal(await syncDue(a.ctx, FAST), 1);
        assert.equal(await playCount(a, alice.userId), history + 1);
        const later = await status(alice.token, id);
        assert.equal(later.stored, history + 1);
        assert.equal(later.state, 'incremental');
      });
    }

    test('a service that limits requests: the run stops, is retried after its Retry-After, and says why', async () => {
      const carol = await createClientAccount(a, 'carol');
      const id = await addSource(carol.token, { kind: 'listenbrainz', username: 'bob', baseUrl: limiterUrl });
      const claim = (await claimSource(a.ctx, FAST, { userId: carol.userId, id }))!;
      await assert.rejects(runClaimed(a.ctx, claim, FAST));
      const failed = await status(carol.token, id);
      assert.equal(failed.state, 'error');
      assert.match(failed.lastError, /limiting/);
      const waitSeconds = (Date.parse(failed.nextRunAt) - Date.now()) / 1000;
      assert.ok(waitSeconds > 500 && waitSeconds <= 600, `retried in ${waitSeconds} s`);
      assert.equal(failed.running, false);
    });

    test('an unknown user is an error on the source, not a crash', async () => {
      const dave = await createClientAccount(a, 'dave');
      const id = await addSource(dave.token, { kind: 'lastfm', username: 'nobody-here' });
      await syncDue(a.ctx, FAST);
      const failed = await status(dave.token, id);
      assert.equal(failed.state, 'error');
      assert.ok(failed.lastError);
    });

    test('sources are checked, limited and private', async () => {
      const erin = await createClientAccount(a, 'erin');
      const add = (input: Record<string, unknown>) => a.procedure('app.svc.sync.addSource', input, erin.token);
      const bad = [
        await add({ kind: 'lastfm', username: 'bob', baseUrl: b.scrobblerUrl }),
        await add({ kind: 'listenbrainz', username: 'bob', baseUrl: 'ftp://nope' }),
        await add({ kind: 'listenbrainz', username: 'a/b' }),
        await add({ kind: 'spotify', username: 'bob' }),
      ];
      assert.deepEqual(
        bad.map((answer) => [answer.status, answer.body.error]),
        Array(4).fill([400, 'InvalidRequest']),
      );
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await addSource(erin.token, { kind: 'listenbrainz', username: `user${i}` }));
      const again = await add({ kind: 'listenbrainz', username: 'USER0' });
      assert.deepEqual([again.status, again.body.error], [409, 'EntryExists']);
      const sixth = await add({ kind: 'lastfm', username: 'bob' });
      assert.deepEqual([sixth.status, sixth.body.error], [409, 'LimitExceeded']);
      const listed = await a.query('app.svc.sync.listSources', {}, erin.token);
      assert.equal(listed.body.sources.length, 5);
      const paused = await a.procedure('app.svc.sync.setPaused', { id: ids[0]!, paused: true }, erin.token);
      assert.deepEqual([paused.body.state, paused.body.nextRunAt], ['paused', null]);
      const other = await a.signup('mallory');
      assert.equal((await a.query('app.svc.sync.getSourceStatus', { id: ids[0]! }, other.token)).status, 404);
      assert.equal((await a.procedure('app.svc.sync.removeSource', { id: ids[0]! }, other.token)).status, 404);
      for (const id of ids) assert.equal((await a.procedure('app.svc.sync.removeSource', { id }, erin.token)).status, 200);
      assert.equal((await a.procedure('app.svc.sync.runNow', { id: ids[0]! }, erin.token)).status, 404);
    });
  });
}
