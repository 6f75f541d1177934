import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { sql } from 'kysely';
import { ingestListens } from '../scrobbling/ingest.ts';
import { startFakeMusicstream, type FakeMusicstream } from '../providers/musicstream/fake.ts';
import { connectWithFake, useProvider } from '../providers/testing.ts';
import { listenerWithHistory, type TestListener } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { artistCredit } from '../catalog/track-metadata.ts';
import { listenOf, pollStreamingAccount, pollStreamingAccounts } from './poller.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 4, 1, 12, minute, 0, 500));
const RECENT = 'GET /me/player/recently-played';
const CURRENT = 'GET /me/player/currently-playing';

test('several artists are one credit, the first featuring the rest; an ISRC the catalog cannot keep is dropped', () => {
  assert.equal(artistCredit(['Daft Punk', 'Pharrell Williams', 'Nile Rodgers']), 'Daft Punk feat. Pharrell Williams, Nile Rodgers');
  assert.equal(artistCredit([' Mariza ']), 'Mariza');
  const listen = listenOf({
    track: { title: 'Get Lucky', artists: ['Daft Punk', 'Pharrell Williams'], album: 'RAM', durationMs: 369_000, isrc: 'not-an-isrc' },
    playedAt: at(1),
  });
  assert.deepEqual(
    { ...listen, submitted: undefined },
    {
      artist: 'Daft Punk feat. Pharrell Williams',
      title: 'Get Lucky',
      album: 'RAM',
      durationMs: 369_000,
      isrc: undefined,
      listenedAt: at(1),
      submitted: undefined,
    },
  );
  assert.equal(listen.submitted?.playedAt, at(1).toISOString());
});

describeWithApp('musicstream poller', (app) => {
  let fake: FakeMusicstream | undefined;
  afterEach(() => fake?.close());

  let handles = 0;
  /** A fresh fake (its history is one listener's) and users connected to it. */
  async function setup(a: TestApp, users = 1, pageSize?: number): Promise<TestListener[]> {
    fake = await startFakeMusicstream({ account: 'listener', ...(pageSize ? { pageSize } : {}) });
    useProvider(a, 'musicstream', fake.config);
    // Earlier tests' connections were to earlier fakes.
    await a.ctx.db.deleteFrom('provider_accounts').where('provider', '=', 'musicstream').execute();
    const listeners: TestListener[] = [];
    for (let i = 0; i < users; i++) {
      const listener = await listenerWithHistory(a, `poll-user-${++handles}`);
      await connectWithFake(a, listener.userId, 'musicstream', fake.oauth, { id: `acct-${handles}`, name: 'listener' });
      listeners.push(listener);
    }
    return listeners;
  }

  const account = (a: TestApp, userId: string) =>
    a.ctx.db
      .selectFrom('provider_accounts')
      .select(['poll_cursor', 'last_polled_at', 'last_poll_error', 'poll_lease_until'])
      .where('user_id', '=', userId)
      .where('provider', '=', 'musicstream')
      .executeTakeFirstOrThrow();
  const feed = async (a: TestApp, listener: TestListener) =>
    (await a.query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${listener.did}` }, listener.token)).body.scrobbles.map(
      (s: { artist: string; title: string; createdAt: string }) => `${s.artist} - ${s.title} @ ${s.createdAt}`,
    );
  const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

  test('plays land in the feed; the cursor persists, a second poll adds nothing and a new play is added', async () => {
    const [user] = await setup(app(), 1, 2);
    fake!.addRecentPlay({ title: 'Desfado', artist: 'Ana Moura', album: 'Desfado', durationMs: 200_000, isrc: 'PTUM71100001', playedAt: at(1) });
    fake!.addRecentPlay({ title: 'Primavera', artist: 'Mariza', album: 'Transparente', playedAt: at(5) });

    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 2, duplicates: 0, ignored: 0 });
    assert.deepEqual(await feed(app(), user!), [`Mariza - Primavera @ ${iso(at(5))}`, `Ana Moura - Desfado @ ${iso(at(1))}`]);
    const first = await account(app(), user!.userId);
    assert.equal(first.poll_cursor, String(at(5).getTime()));
    assert.ok(first.last_polled_at);
    assert.equal(first.last_poll_error, null);
    const stored = await app()
      .ctx.db.selectFrom('scrobbles')
      .select(['source', 'submitted'])
      .where('user_id', '=', user!.userId)
      .orderBy('listened_at')
      .execute();
    assert.equal(stored[0]!.source, 'musicstream');
    assert.equal((stored[0]!.submitted as { track: { isrc: string } }).track.isrc, 'PTUM71100001');

    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 0, duplicates: 0, ignored: 0 });
    assert.equal(fake!.server.requests.at(-1), `${RECENT}?limit=50&after=${at(5).getTime()}`);

    fake!.addRecentPlay({ title: 'Leva-me aos Fados', artist: 'Ana Moura', album: 'Desfado', playedAt: at(9) });
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 1, duplicates: 0, ignored: 0 });
    assert.equal((await feed(app(), user!)).length, 3);
    assert.equal((await account(app(), user!.userId)).poll_cursor, String(at(9).getTime()));
  });

  test('a play read again, or already scrobbled another way, is a duplicate, not a second listen', async () => {
    const [user] = await setup(app());
    // The same play, sent by a scrobbling client on another path before the poll.
    await ingestListens(app().ctx, user!.userId, [{ artist: 'Mariza', title: 'Primavera', album: 'Transparente', listenedAt: at(5) }], 'listenbrainz');
    fake!.addRecentPlay({ title: 'Primavera', artist: 'Mariza', album: 'Transparente', playedAt: at(5) });
    fake!.addRecentPlay({ title: 'Desfado', artist: 'Ana Moura', album: 'Desfado', playedAt: at(7) });
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 1, duplicates: 1, ignored: 0 });

    // A lost cursor reads everything again.
    await app().ctx.db.updateTable('provider_accounts').set({ poll_cursor: null }).where('user_id', '=', user!.userId).execute();
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 0, duplicates: 2, ignored: 0 });
    assert.equal((await feed(app(), user!)).length, 2);
  });

  test('a failed poll leaves the cursor and records the error; the next good one clears it', async () => {
    const [user] = await setup(app());
    fake!.addRecentPlay({ title: 'Desfado', artist: 'Ana Moura', playedAt: at(1) });
    await pollStreamingAccount(app().ctx, user!.userId);
    const before = await account(app(), user!.userId);
    fake!.addRecentPlay({ title: 'Primavera', artist: 'Mariza', playedAt: at(5) });

    fake!.server.failNext({ status: 503 }, '/me/player/recently-played');
    await assert.rejects(pollStreamingAccount(app().ctx, user!.userId), { failure: 'Unavailable' });
    const failed = await account(app(), user!.userId);
    assert.equal(failed.poll_cursor, before.poll_cursor);
    assert.deepEqual(failed.last_polled_at, before.last_polled_at);
    assert.match(failed.last_poll_error!, /musicstream failed \(HTTP 503\)/);
    const { connections } = (await app().query('app.svc.provider.getConnections', {}, user!.token)).body;
    assert.equal(connections[0].lastPollError, failed.last_poll_error);

    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 1, duplicates: 0, ignored: 0 });
    const recovered = await account(app(), user!.userId);
    assert.equal(recovered.last_poll_error, null);
    assert.equal(recovered.poll_cursor, String(at(5).getTime()));
  });

  test('two pollers at once poll each account once, and release the leases', async () => {
    const users = await setup(app(), 3);
    fake!.addRecentPlay({ title: 'Desfado', artist: 'Ana Moura', playedAt: at(1) });
    const [a, b] = await Promise.all([pollStreamingAccounts(app().ctx), pollStreamingAccounts(app().ctx)]);
    assert.equal(fake!.server.requests.filter((request) => request.startsWith(RECENT)).length, 3);
    assert.equal(a.polled + b.polled, 3);
    assert.equal(a.stored + b.stored, 3);
    for (const user of users) {
      assert.equal((await feed(app(), user)).length, 1);
      assert.equal((await account(app(), user.userId)).poll_lease_until, null);
    }
  });

  test("a held lease is skipped; one account's failure does not stop the others", async () => {
    const [held, failing, fine] = await setup(app(), 3);
    fake!.addRecentPlay({ title: 'Desfado', artist: 'Ana Moura', playedAt: at(1) });
    const lease = new Date(Date.now() + 60_000);
    await app().ctx.db.updateTable('provider_accounts').set({ poll_lease_until: lease }).where('user_id', '=', held!.userId).execute();
    // Accounts are polled in user-id order: fail whichever of the other two comes first.
    const [first, second] = [failing!, fine!].sort((x, y) => (x.userId < y.userId ? -1 : 1));
    fake!.server.failNext({ status: 500 }, '/me/player/recently-played');
    const summary = await pollStreamingAccounts(app().ctx);
    assert.deepEqual(summary, { polled: 1, failed: 1, stored: 1, duplicates: 0, ignored: 0 });
    assert.match((await account(app(), first!.userId)).last_poll_error!, /HTTP 500/);
    assert.equal((await feed(app(), second!)).length, 1);
    assert.equal((await feed(app(), held!)).length, 0);
    assert.deepEqual((await account(app(), held!.userId)).poll_lease_until, lease);
  });

  test('broken connections and an unconfigured service are not polled', async () => {
    const [user] = await setup(app());
    await app().ctx.db.updateTable('provider_accounts').set({ status: 'broken' }).where('user_id', '=', user!.userId).execute();
    assert.deepEqual(await pollStreamingAccounts(app().ctx), { polled: 0, failed: 0, stored: 0, duplicates: 0, ignored: 0 });
    await app().ctx.db.updateTable('provider_accounts').set({ status: 'connected' }).where('user_id', '=', user!.userId).execute();
    useProvider(app(), 'musicstream', undefined);
    assert.deepEqual(await pollStreamingAccounts(app().ctx), { polled: 0, failed: 0, stored: 0, duplicates: 0, ignored: 0 });
    assert.equal(fake!.server.requests.length, 0);
  });

  /** As if `ms` had passed since the poller's last reading of what plays: a test cannot wait minutes for a song to play. */
  const elapse = (a: TestApp, userId: string, ms: number) =>
    sql`update provider_accounts set poll_observed = (
        select jsonb_agg(jsonb_set(o, '{clock,atMs}', to_jsonb((o #>> '{clock,atMs}')::float8 - ${ms})) order by i)
        from jsonb_array_elements(poll_observed) with ordinality as e(o, i))
      where user_id = ${userId} and provider = 'musicstream' and jsonb_array_length(poll_observed) > 0`.execute(a.ctx.db);
  const playedMs = async (a: TestApp, userId: string) =>
    Object.fromEntries(
      (
        await a.ctx.db
          .selectFrom('scrobbles as s')
          .innerJoin('tracks as t', 't.id', 's.track_id')
          .select(['t.title', 's.played_ms'])
          .where('s.user_id', '=', userId)
          .execute()
      ).map((row) => [row.title, row.played_ms]),
    );
  /** The played time is `expectedMs`, give or take the milliseconds the test took since `began` (the fake's progress runs on meanwhile). */
  const assertAbout = (playedMs: number | null | undefined, expectedMs: number, began: number) =>
    assert.ok(playedMs != null && playedMs >= expectedMs && playedMs <= expectedMs + (Date.now() - began), String(playedMs));
  const DESFADO = { title: 'Desfado', artist: 'Ana Moura', durationMs: 200_000 };
  const PRIMAVERA = { title: 'Primavera', artist: 'Mariza', durationMs: 150_000 };

  test('a play the poller saw playing is stored with what its readings prove heard; one never seen has no played time', async () => {
    const [user] = await setup(app());
    const began = Date.now();
    fake!.setPlaying(DESFADO, true, 30_000);
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 0, duplicates: 0, ignored: 0 });
    await elapse(app(), user!.userId, 90_000);
    fake!.setPlaying(DESFADO, true, 120_000);
    await pollStreamingAccount(app().ctx, user!.userId);
    // The service lists the play once it is over, after one the poller never saw.
    fake!.setPlaying(PRIMAVERA, true, 5_000);
    fake!.addRecentPlay({ title: 'Leva-me aos Fados', artist: 'Ana Moura', playedAt: new Date(Date.now() - 60_000) });
    fake!.addRecentPlay({ ...DESFADO, playedAt: new Date() });
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 2, duplicates: 0, ignored: 0 });
    assert.equal(fake!.server.requests.filter((request) => request.startsWith(CURRENT)).length, 3);

    const played = await playedMs(app(), user!.userId);
    assert.equal(played['Leva-me aos Fados'], null);
    // Its progress at the last reading: 120 s, and at most the milliseconds the test took since.
    assertAbout(played.Desfado, 120_000, began);
    const { playedMs: apiPlayed } = (await app().query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${user!.did}` }, user!.token)).body.scrobbles.find(
      (scrobble: { title: string }) => scrobble.title === 'Desfado',
    );
    assert.equal(apiPlayed, played.Desfado);
  });

  test('time paused is not counted, nor play after a pause the poller did not see resume', async () => {
    const [user] = await setup(app());
    const began = Date.now();
    fake!.setPlaying(DESFADO, true, 30_000);
    await pollStreamingAccount(app().ctx, user!.userId);
    await elapse(app(), user!.userId, 60_000);
    fake!.setPlaying(DESFADO, false, 60_000);
    await pollStreamingAccount(app().ctx, user!.userId);
    await elapse(app(), user!.userId, 600_000);
    // Resumed at some moment in the last ten minutes: how long it has played since is not known.
    fake!.setPlaying(DESFADO, true, 150_000);
    await pollStreamingAccount(app().ctx, user!.userId);
    fake!.setPlaying(null);
    fake!.addRecentPlay({ ...DESFADO, playedAt: new Date() });
    await pollStreamingAccount(app().ctx, user!.userId);
    const { Desfado } = await playedMs(app(), user!.userId);
    assertAbout(Desfado, 60_000, began);
  });

  test('pollers in several processes carry one observation on, counting nothing twice', async () => {
    const [user] = await setup(app());
    const began = Date.now();
    const bothPoll = async () => {
      // A round polls accounts last polled before it began, by the database's clock, which on PGlite
      // ticks in milliseconds: a round begun in the tick the last one ended in would poll nothing.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const [a, b] = await Promise.all([pollStreamingAccounts(app().ctx), pollStreamingAccounts(app().ctx)]);
      assert.equal(a.polled + b.polled, 1);
    };
    fake!.setPlaying(DESFADO, true, 30_000);
    await bothPoll();
    await elapse(app(), user!.userId, 90_000);
    fake!.setPlaying(DESFADO, true, 120_000);
    await bothPoll();
    fake!.addRecentPlay({ ...DESFADO, playedAt: new Date() });
    await bothPoll();
    assert.equal(fake!.server.requests.filter((request) => request.startsWith(CURRENT)).length, 3);
    const { Desfado } = await playedMs(app(), user!.userId);
    assertAbout(Desfado, 120_000, began);
    // The seen play is paired and gone; the one still listed is read again as a duplicate, with nothing added.
    await app().ctx.db.updateTable('provider_accounts').set({ poll_cursor: null }).where('user_id', '=', user!.userId).execute();
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 0, duplicates: 1, ignored: 0 });
    assert.equal((await playedMs(app(), user!.userId)).Desfado, Desfado);
  });

  test('a reconnect to another account forgets what the poller saw on the old one', async () => {
    const [user] = await setup(app());
    fake!.setPlaying(DESFADO, true, 30_000);
    await pollStreamingAccount(app().ctx, user!.userId);
    const observed = () => app().ctx.db.selectFrom('provider_accounts').select('poll_observed').where('user_id', '=', user!.userId).executeTakeFirstOrThrow();
    assert.equal((await observed()).poll_observed.length, 1);
    await connectWithFake(app(), user!.userId, 'musicstream', fake!.oauth, { id: 'another-account', name: 'listener' });
    assert.deepEqual((await observed()).poll_observed, []);
  });

  test('a failing currently-playing does not fail the poll', async () => {
    const [user] = await setup(app());
    fake!.addRecentPlay({ ...DESFADO, playedAt: at(1) });
    fake!.server.failNext({ status: 503 }, '/me/player/currently-playing');
    assert.deepEqual(await pollStreamingAccount(app().ctx, user!.userId), { stored: 1, duplicates: 0, ignored: 0 });
    assert.deepEqual(await playedMs(app(), user!.userId), { Desfado: null });
    assert.equal((await account(app(), user!.userId)).last_poll_error, null);
  });
});
