import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { jsonRequest, startTestApp, testBackends, type TestApp } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { openDatabase } from '../../toolkit/db/database.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import { loadConfig } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import { claimBatch, deliverBatch, deliverDue, type SenderOptions } from './sender.ts';
import { deleteUser } from '../auth/users.ts';
import { subsonicClient } from '../../adapters/subsonic/client-testing.ts';
import { settleDetached } from '../../toolkit/background.ts';
import { approveLastfmLink, openLastfmCallback, startRelayProxy, timePasses, type RelayProxy } from './relay-testing.ts';

/** Retries come quickly here; the lease is short enough to watch it run out. */
// Backoffs and leases far longer than any test: a wait is ended by timePasses, never by the clock.
const FAST: SenderOptions = { leaseMs: 600_000, maxAttempts: 3, backoffBaseMs: 600_000, backoffMaxMs: 600_000 };

for (const backend of testBackends()) {
  describe(`relaying plays from one Earshot to another [${backend.name}]`, () => {
    let a: TestApp;
    let b: TestApp;
    let proxy: RelayProxy;
    let bob: ClientAccount;
    let alice: ClientAccount;
    let songs = 0;

    before(async () => {
      b = await startTestApp(backend);
      proxy = await startRelayProxy(b.scrobblerUrl);
      // B's operator registers the API application A's operator configures; bob listens on B.
      const operator = await createClientAccount(b, 'operator');
      bob = await createClientAccount(b, 'bob');
      const lastfm = { apiKey: operator.key, secret: operator.sharedSecret, apiUrl: `${proxy.url}/2.0/`, authUrl: `${b.scrobblerUrl}/api/auth/` };
      a = await startTestApp(backend, { relay: { ...loadConfig({}).relay, enabled: false, lastfm } });
      // Last.fm sends the browser back to A's public address: here, where A listens.
      a.ctx.config.publicUrl = a.apiUrl;
      alice = await createClientAccount(a, 'alice');
    });
    after(async () => {
      await a?.close();
      await proxy?.close();
      await b?.close();
    });

    /** A new song played on A through its ListenBrainz API; answers its title. */
    async function playOnA(at = new Date(Date.UTC(2025, 5, 1, 12, songs))): Promise<string> {
      const title = `Relayed ${++songs}`;
      const listen = { listened_at: Math.floor(at.getTime() / 1000), track_metadata: { artist_name: 'Relay Artist', track_name: title } };
      const submitted = await jsonRequest(`${a.scrobblerUrl}/1/submit-listens`, 'POST', {
        headers: { authorization: `Token ${alice.key}` },
        body: { listen_type: 'single', payload: [listen] },
      });
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      return title;
    }

    /** Bob's plays of a song on B. */
    async function playsOnB(title: string): Promise<number> {
      const row = await b.ctx.db
        .selectFrom('scrobbles')
        .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('scrobbles.user_id', '=', bob.userId)
        .where('tracks.title', '=', title)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    /** Requests that carried the song to B. */
    const sends = (title: string) => proxy.seen.filter(({ body }) => body.includes(title.replaceAll(' ', '+')) || body.includes(title)).length;

    async function addTarget(input: Record<string, unknown>): Promise<string> {
      const added = await a.procedure('app.svc.relay.addTarget', input, alice.token);
      assert.equal(added.status, 200, JSON.stringify(added.body));
      return added.body.id;
    }

    const removeTarget = async (id: string) => assert.equal((await a.procedure('app.svc.relay.removeTarget', { id }, alice.token)).status, 200);
    const status = async (id: string) => (await a.query('app.svc.relay.getTargetStatus', { id }, alice.token)).body;

    for (const kind of ['listenbrainz', 'earshot', 'maloja'] as const) {
      test(`${kind}: a play stored on A arrives at B exactly once`, async () => {
        // ListenBrainz clients are often given the API root with /1/; both forms name one server.
        const id = await addTarget({ kind, name: `B over ${kind}`, baseUrl: kind === 'listenbrainz' ? `${proxy.url}/1/` : proxy.url, secret: bob.key });
        const title = await playOnA();
        assert.equal((await status(id)).queued, 1);
        assert.equal(await deliverDue(a.ctx, FAST), 1);
        assert.equal(await deliverDue(a.ctx, FAST), 0);
        assert.equal(await playsOnB(title), 1);
        assert.equal(sends(title), 1);
        const after = await status(id);
        assert.equal(after.queued, 0);
        assert.equal(after.deadLetterCount, 0);
        assert.ok(after.lastSuccessAt);
        await removeTarget(id);
      });
    }

    /** Links a Last.fm target as a browser would: B's authorisation page, bob signs in there, B sends the same browser back to A's callback. */
    async function linkLastfm(id: string): Promise<{ callback: string; cookie: string }> {
      const { callback, cookie } = await approveLastfmLink(a, alice.token, id, bob);
      const linked = await openLastfmCallback(callback, cookie);
      assert.equal(linked.status, 200, JSON.stringify(linked.body));
      assert.equal(linked.body.accountName, 'bob');
      assert.match(linked.headers.get('set-cookie') ?? '', /^earshot_relay_lastfm=; .*Max-Age=0/, 'the binding cookie is cleared');
      return { callback, cookie };
    }

    /** A target of this kind relaying to bob at B (through the proxy), linked when it is Last.fm. */
    async function targetAtB(kind: 'listenbrainz' | 'maloja' | 'lastfm'): Promise<string> {
      if (kind !== 'lastfm') return addTarget({ kind, name: `B over ${kind}`, baseUrl: proxy.url, secret: bob.key });
      const id = await addTarget({ kind, name: 'B as Last.fm' });
      await linkLastfm(id);
      return id;
    }

    test('lastfm: linked through the web authorisation flow at B, then a play arrives once', async () => {
      const id = await addTarget({ kind: 'lastfm', name: 'B as Last.fm' });
      assert.equal((await status(id)).linked, false);
      const before = await playOnA();
      const { callback, cookie } = await linkLastfm(id);
      assert.equal((await status(id)).linked, true);
      // A used callback's token is spent at B: it links nothing twice.
      assert.equal((await openLastfmCallback(callback, cookie)).status, 403);
      const stored = await a.ctx.db.selectFrom('relay_targets').select('secret_sealed').where('id', '=', id).executeTakeFirstOrThrow();
      assert.match(stored.secret_sealed!, /^v1:/);

      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      assert.equal(await deliverDue(a.ctx, FAST), 0);
      assert.equal(await playsOnB(title), 1);
      assert.equal(sends(title), 1);
      // Played before the account was linked: not relayed.
      assert.equal(await playsOnB(before), 0);
      await removeTarget(id);
    });

    test('lastfm: a callback opened in another browser than the one that started linking is refused, and links nothing', async () => {
      const id = await addTarget({ kind: 'lastfm', name: 'B as Last.fm' });
      const { callback, cookie } = await approveLastfmLink(a, alice.token, id, bob);
      for (const other of [undefined, 'earshot_relay_lastfm=someone-elses']) {
        const refused = await openLastfmCallback(callback, other);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error, 'Forbidden');
        assert.match(refused.body.message, /started in another browser.*nothing was linked/);
      }
      assert.equal((await status(id)).linked, false);
      assert.equal((await a.ctx.db.selectFrom('relay_targets').select('secret_sealed').where('id', '=', id).executeTakeFirstOrThrow()).secret_sealed, null);
      // Refused before the token was traded: the browser that started it still finishes.
      const linked = await openLastfmCallback(callback, cookie);
      assert.equal(linked.status, 200, JSON.stringify(linked.body));
      assert.equal((await status(id)).linked, true);
      await removeTarget(id);
    });

    test('lastfm: a like through the API and a Subsonic star reach B as loves; an unlike and an unstar as unloves', async () => {
      const id = await targetAtB('lastfm');
      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      const song = await a.ctx.db.selectFrom('tracks').select('id').where('title', '=', title).executeTakeFirstOrThrow();
      /** Whether bob loves the song at B, once A's forwarding has finished. */
      const lovedAtB = async () => {
        await settleDetached();
        const row = await b.ctx.db
          .selectFrom('stars')
          .innerJoin('tracks', 'tracks.id', 'stars.subject_id')
          .select('stars.user_id')
          .where('stars.user_id', '=', bob.userId)
          .where('tracks.title', '=', title)
          .executeTakeFirst();
        return row !== undefined;
      };
      const calls = () =>
        proxy.seen.filter(({ body }) => body.includes(`track=${title.replaceAll(' ', '+')}`)).map(({ body }) => new URLSearchParams(body).get('method'));

      assert.equal((await a.procedure('app.svc.song.likeSong', { id: song.id }, alice.token)).status, 200);
      assert.equal(await lovedAtB(), true);
      assert.equal((await a.procedure('app.svc.song.likeSong', { id: song.id }, alice.token)).status, 200);
      assert.equal((await a.procedure('app.svc.song.unlikeSong', { id: song.id }, alice.token)).status, 200);
      assert.equal(await lovedAtB(), false);

      const subsonic = subsonicClient(a, { apiKey: alice.key });
      assert.equal((await subsonic.star({ id: song.id })).status, 'ok');
      assert.equal(await lovedAtB(), true);
      assert.equal((await subsonic.unstar({ id: song.id })).status, 'ok');
      assert.equal(await lovedAtB(), false);
      // Liking a song already liked is no event, so it is not forwarded.
      assert.deepEqual(calls(), ['track.love', 'track.unlove', 'track.love', 'track.unlove']);
      assert.equal((await status(id)).queued, 0, 'loves go without the outbox');
      await removeTarget(id);
    });

    for (const kind of ['listenbrainz', 'maloja', 'lastfm'] as const) {
      test(`${kind}: while B is down the play stays queued; it is delivered once B is back`, async () => {
        const id = await targetAtB(kind);
        proxy.down = true;
        const title = await playOnA();
        try {
          assert.equal(await deliverDue(a.ctx, FAST), 0);
          const waiting = await status(id);
          assert.equal(waiting.queued, 1);
          assert.match(waiting.lastError, /could not be reached/);
          // Held: asked again at once, the sender waits for the backoff.
          assert.equal(await deliverDue(a.ctx, FAST), 0);
        } finally {
          proxy.down = false;
        }
        await timePasses(a.ctx);
        assert.equal(await deliverDue(a.ctx, FAST), 1);
        assert.equal(await playsOnB(title), 1);
        assert.equal(sends(title), 1);
        assert.equal((await status(id)).queued, 0);
        await removeTarget(id);
      });

      test(`${kind}: a sender that dies mid-batch holds its lease until it runs out; then another delivers the play once`, async () => {
        const id = await targetAtB(kind);
        const title = await playOnA();
        const abandoned = await claimBatch(a.ctx, FAST);
        assert.equal(abandoned?.rows.length, 1);
        // The dead sender's lease holds: nobody else takes the play.
        assert.equal(await deliverDue(a.ctx, FAST), 0);
        await timePasses(a.ctx);
        assert.equal(await deliverDue(a.ctx, FAST), 1);
        assert.equal(await playsOnB(title), 1);
        assert.equal(sends(title), 1);
        await removeTarget(id);
      });

      test(`${kind}: two senders on one database deliver each play once`, async () => {
        const id = await targetAtB(kind);
        const titles: string[] = [];
        for (let i = 0; i < 12; i++) titles.push(await playOnA());
        // On PostgreSQL the second sender has its own connections, as a second process would.
        const schema = backend.name === 'pglite' ? undefined : (await sql<{ s: string }>`select current_schema() as s`.execute(a.ctx.db)).rows[0]!.s;
        const secondDb = schema ? await openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema }) : a.ctx.db;
        const second: AppContext = { ...a.ctx, db: secondDb };
        try {
          const [one, two] = await Promise.all([deliverDue(a.ctx, FAST), deliverDue(second, FAST)]);
          assert.equal(one + two, titles.length);
        } finally {
          if (schema) await secondDb.destroy();
        }
        for (const title of titles) {
          assert.equal(await playsOnB(title), 1, title);
          assert.equal(sends(title), 1, title);
        }
        await removeTarget(id);
      });
    }

    /** A's play of the song: its id and unix second. */
    async function playOnAOf(title: string): Promise<{ id: string; trackId: string; seconds: number }> {
      const row = await a.ctx.db
        .selectFrom('scrobbles')
        .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
        .select(['scrobbles.id', 'scrobbles.track_id', 'scrobbles.listened_at'])
        .where('scrobbles.user_id', '=', alice.userId)
        .where('tracks.title', '=', title)
        .executeTakeFirstOrThrow();
      return { id: row.id, trackId: row.track_id, seconds: Math.floor(row.listened_at.getTime() / 1000) };
    }

    /** Every way a play is deleted on A: the API, ListenBrainz delete-listen, Maloja delete_scrobble. */
    const deleteOnA = {
      async xrpc(title: string) {
        const deleted = await a.procedure('app.svc.scrobble.deleteScrobble', { id: (await playOnAOf(title)).id }, alice.token);
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      },
      async listenbrainz(title: string) {
        const play = await playOnAOf(title);
        const deleted = await jsonRequest(`${a.scrobblerUrl}/1/delete-listen`, 'POST', {
          headers: { authorization: `Token ${alice.key}` },
          body: { listened_at: play.seconds, recording_msid: play.trackId },
        });
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      },
      async maloja(title: string) {
        const play = await playOnAOf(title);
        const deleted = await jsonRequest(`${a.scrobblerUrl}/apis/mlj_1/delete_scrobble`, 'POST', { body: { key: alice.key, timestamp: play.seconds } });
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      },
    };

    /** Requests that asked B to delete something, and that looked for a listen to delete. */
    const deletions = () => proxy.seen.filter(({ line }) => /^POST \/(1\/delete-listen|apis\/mlj_1\/delete_scrobble)/.test(line)).length;
    const lookups = () => proxy.seen.filter(({ line }) => line.startsWith('GET /1/user/bob/listens?')).length;

    for (const [kind, path] of [
      ['listenbrainz', 'xrpc'],
      ['earshot', 'listenbrainz'],
      ['maloja', 'maloja'],
    ] as const) {
      test(`${kind}: a play relayed to B and deleted on A (${path}) is deleted at B, once`, async () => {
        const id = await addTarget({ kind, name: `B over ${kind}`, baseUrl: proxy.url, secret: bob.key });
        const title = await playOnA();
        const kept = await playOnA();
        assert.equal(await deliverDue(a.ctx, FAST), 2);
        assert.equal(await playsOnB(title), 1);
        const [deletionsBefore, lookupsBefore] = [deletions(), lookups()];

        await deleteOnA[path](title);
        assert.equal((await status(id)).queued, 1, 'the deletion is queued with the deletion of the play');
        assert.equal(await deliverDue(a.ctx, FAST), 1);
        assert.equal(await deliverDue(a.ctx, FAST), 0);
        assert.equal(await playsOnB(title), 0);
        assert.equal(await playsOnB(kept), 1, 'the play at the next minute stays');
        assert.equal(deletions() - deletionsBefore, 1);
        // ListenBrainz names a listen by its msid: it is looked up among bob's listens first.
        assert.equal(lookups() - lookupsBefore, kind === 'maloja' ? 0 : 1);
        const after = await status(id);
        assert.deepEqual([after.queued, after.deadLetterCount], [0, 0]);
        await removeTarget(id);
      });
    }

    test('listenbrainz: a play already gone from B is a deletion done, without a delete-listen', async () => {
      const id = await targetAtB('listenbrainz');
      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      await b.ctx.db
        .deleteFrom('scrobbles')
        .where('user_id', '=', bob.userId)
        .where(
          'id',
          'in',
          b.ctx.db.selectFrom('scrobbles').innerJoin('tracks', 'tracks.id', 'scrobbles.track_id').select('scrobbles.id').where('tracks.title', '=', title),
        )
        .execute();
      const before = deletions();
      await deleteOnA.xrpc(title);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      assert.equal(deletions(), before);
      assert.deepEqual([(await status(id)).queued, (await status(id)).deadLetterCount], [0, 0]);
      await removeTarget(id);
    });

    for (const kind of ['listenbrainz', 'maloja', 'lastfm'] as const) {
      test(`${kind}: a play deleted on A while still queued is never sent, and no deletion either`, async () => {
        const id = await targetAtB(kind);
        const title = await playOnA();
        assert.equal((await status(id)).queued, 1);
        const before = deletions();
        await deleteOnA.xrpc(title);
        assert.equal((await status(id)).queued, 0);
        assert.equal(await deliverDue(a.ctx, FAST), 0);
        assert.equal(sends(title), 0);
        assert.equal(deletions(), before);
        await removeTarget(id);
      });
    }

    test('lastfm: a relayed play deleted on A stays at B (Last.fm has no deletion), and nothing is queued', async () => {
      const id = await targetAtB('lastfm');
      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      const requests = proxy.seen.length;
      await deleteOnA.xrpc(title);
      assert.equal((await status(id)).queued, 0);
      assert.equal(await deliverDue(a.ctx, FAST), 0);
      assert.equal(proxy.seen.length, requests);
      assert.equal(await playsOnB(title), 1);
      await removeTarget(id);
    });

    test('maloja: a play deleted while it is being sent is deleted at B once the send is settled', async () => {
      const id = await targetAtB('maloja');
      const title = await playOnA();
      const inFlight = await claimBatch(a.ctx, FAST);
      assert.equal(inFlight?.rows.length, 1);
      await deleteOnA.xrpc(title);
      // The deletion waits for the send: held back while the send's lease lasts, no try spent.
      assert.equal(await deliverDue(a.ctx, FAST), 0);
      const held = await a.ctx.db
        .selectFrom('relay_outbox')
        .select(['attempts', 'next_attempt_at'])
        .where('target_id', '=', id)
        .where('op', '=', 'delete')
        .executeTakeFirstOrThrow();
      assert.equal(held.attempts, 0);
      assert.ok(held.next_attempt_at > new Date(), 'due when the lease ends');
      assert.equal(await deliverBatch(a.ctx, inFlight!, FAST), 1);
      assert.equal(await playsOnB(title), 1);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      assert.equal(await playsOnB(title), 0);
      assert.equal((await status(id)).queued, 0);
      await removeTarget(id);
    });

    test('maloja: a deletion B fails is retried with backoff; once B refuses it, it is a dead letter marked as a deletion', async () => {
      const id = await targetAtB('maloja');
      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      await deleteOnA.xrpc(title);
      proxy.down = true;
      try {
        assert.equal(await deliverDue(a.ctx, FAST), 0);
        assert.match((await status(id)).lastError, /could not be reached/);
      } finally {
        proxy.down = false;
      }
      await timePasses(a.ctx);
      const key = await b.ctx.db.selectFrom('api_keys').select(['id', 'key_hash']).where('user_id', '=', bob.userId).executeTakeFirstOrThrow();
      await b.ctx.db.updateTable('api_keys').set({ key_hash: 'revoked' }).where('id', '=', key.id).execute();
      try {
        assert.equal(await deliverDue(a.ctx, FAST), 0);
      } finally {
        await b.ctx.db.updateTable('api_keys').set({ key_hash: key.key_hash }).where('id', '=', key.id).execute();
      }
      const refused = await status(id);
      assert.deepEqual(
        refused.deadLetters.map((letter: { action: string; title: string; state: string }) => [letter.action, letter.title, letter.state]),
        [['delete', title, 'refused']],
      );
      assert.equal(await playsOnB(title), 1);
      assert.deepEqual((await a.procedure('app.svc.relay.retryDeadLetters', { id }, alice.token)).body, { requeued: 1 });
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      assert.equal(await playsOnB(title), 0);
      await removeTarget(id);
    });

    test('a play synced in from a target is deleted at the other targets that took it, never at its origin', async () => {
      const origin = await addTarget({ kind: 'maloja', name: 'B, the origin', baseUrl: proxy.url, secret: bob.key, relayImports: true });
      const other = await addTarget({ kind: 'earshot', name: 'B, another', baseUrl: proxy.url, secret: bob.key, relayImports: true });
      const title = `Synced ${++songs}`;
      const listen = { artist: 'Relay Artist', title, listenedAt: new Date(Date.UTC(2025, 6, 1)) };
      const { resolveListenTracks, storeListens } = await import('../scrobbling/ingest.ts');
      const tracks = await resolveListenTracks(a.ctx.db, a.ctx.config, [listen]);
      await inTransaction(a.ctx.db, (tx) => storeListens(tx, alice.userId, [listen], tracks, 'sync:listenbrainz', origin));
      assert.deepEqual([(await status(origin)).queued, (await status(other)).queued], [0, 1]);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      const malojaDeletions = () => proxy.seen.filter(({ line }) => line.startsWith('POST /apis/mlj_1/delete_scrobble')).length;
      const [before, malojaBefore] = [deletions(), malojaDeletions()];
      await deleteOnA.xrpc(title);
      assert.deepEqual([(await status(origin)).queued, (await status(other)).queued], [0, 1]);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      assert.equal(deletions() - before, 1);
      assert.equal(malojaDeletions(), malojaBefore, 'nothing is sent to the origin');
      assert.equal(await playsOnB(title), 0);
      await removeTarget(origin);
      await removeTarget(other);
    });

    test('deleting an account whose plays were relayed deletes nothing at its targets (they go with it)', async () => {
      const dave = await createClientAccount(a, 'dave');
      const added = await a.procedure('app.svc.relay.addTarget', { kind: 'maloja', name: 'B', baseUrl: proxy.url, secret: bob.key }, dave.token);
      assert.equal(added.status, 200);
      const title = `Dave's ${++songs}`;
      const stored = await jsonRequest(`${a.scrobblerUrl}/apis/mlj_1/newscrobble`, 'POST', {
        body: { key: dave.key, artist: 'Relay Artist', title, time: 1_750_000_000 },
      });
      assert.equal(stored.status, 200);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      await deleteUser(a.ctx.db, dave.userId);
      assert.equal((await a.ctx.db.selectFrom('relay_outbox').select('id').where('user_id', '=', dave.userId).execute()).length, 0);
      assert.equal(await deliverDue(a.ctx, FAST), 0);
      assert.equal(await playsOnB(title), 1);
    });

    test('now playing is forwarded best-effort, without the outbox', async () => {
      const id = await targetAtB('listenbrainz');
      const playing = await jsonRequest(`${a.scrobblerUrl}/1/submit-listens`, 'POST', {
        headers: { authorization: `Token ${alice.key}` },
        body: { listen_type: 'playing_now', payload: [{ track_metadata: { artist_name: 'Relay Artist', track_name: 'Playing Now' } }] },
      });
      assert.equal(playing.status, 200);
      await settleDetached();
      const forwarded = await b.ctx.db.selectFrom('now_playing').select('user_id').where('user_id', '=', bob.userId).executeTakeFirst();
      assert.ok(forwarded, "bob's now playing at B");
      assert.equal((await status(id)).queued, 0);
      await removeTarget(id);
    });

    test("a play B refuses is a dead letter with B's error, and the retry button sends it again", async () => {
      const key = await createClientAccount(b, 'carol');
      const id = await addTarget({ kind: 'maloja', name: 'B, refusing', baseUrl: proxy.url, secret: key.key });
      const row = await b.ctx.db.selectFrom('api_keys').select('key_hash').where('id', '=', key.apiKeyId).executeTakeFirstOrThrow();
      await b.ctx.db.updateTable('api_keys').set({ key_hash: 'revoked' }).where('id', '=', key.apiKeyId).execute();
      const title = await playOnA();
      assert.equal(await deliverDue(a.ctx, FAST), 0);
      const refused = await status(id);
      assert.equal(refused.queued, 0);
      assert.equal(refused.deadLetterCount, 1);
      assert.deepEqual({ title: refused.deadLetters[0].title, state: refused.deadLetters[0].state }, { title, state: 'refused' });
      assert.match(refused.deadLetters[0].error, /authentication_fail: Invalid or missing authentication/);
      // Refused is final until the user asks.
      assert.equal(await deliverDue(a.ctx, FAST), 0);

      await b.ctx.db.updateTable('api_keys').set({ key_hash: row.key_hash }).where('id', '=', key.apiKeyId).execute();
      const retried = await a.procedure('app.svc.relay.retryDeadLetters', { id }, alice.token);
      assert.deepEqual([retried.status, retried.body], [200, { requeued: 1 }]);
      assert.equal(await deliverDue(a.ctx, FAST), 1);
      const carolPlays = await b.ctx.db.selectFrom('scrobbles').select('id').where('user_id', '=', key.userId).execute();
      assert.equal(carolPlays.length, 1);
      assert.equal(sends(title), 2);
      assert.equal((await status(id)).deadLetterCount, 0);
      await removeTarget(id);
    });

    test('imports are relayed only when the target asks, inside its window', async () => {
      const plain = await addTarget({ kind: 'earshot', name: 'no imports', baseUrl: proxy.url, secret: bob.key });
      const windowed = await addTarget({
        kind: 'earshot',
        name: 'imports of June',
        baseUrl: proxy.url,
        secret: bob.key,
        relayImports: true,
        importsFrom: '2025-06-01T00:00:00Z',
        importsUntil: '2025-07-01T00:00:00Z',
      });
      const listen = (title: string, at: string) => ({ listened_at: Date.parse(at) / 1000, track_metadata: { artist_name: 'Importer', track_name: title } });
      const imported = await jsonRequest(`${a.scrobblerUrl}/1/submit-listens`, 'POST', {
        headers: { authorization: `Token ${alice.key}` },
        body: { listen_type: 'import', payload: [listen('In June', '2025-06-10T10:00:00Z'), listen('In May', '2025-05-10T10:00:00Z')] },
      });
      assert.equal(imported.status, 200);
      // A ListenBrainz 'import' submission is a client's, not an import of Earshot's: both are relayed to both.
      assert.equal((await status(plain)).queued, 2);
      await a.ctx.db.deleteFrom('relay_outbox').execute();
      const { ingestListens } = await import('../scrobbling/ingest.ts');
      const alicePlays = (title: string, at: string) => ({ artist: 'Importer', title, listenedAt: new Date(at) });
      await ingestListens(
        a.ctx,
        alice.userId,
        [alicePlays('File June', '2025-06-11T10:00:00Z'), alicePlays('File May', '2025-05-11T10:00:00Z')],
        'import:listenbrainz',
      );
      assert.equal((await status(plain)).queued, 0);
      const queued = await a.ctx.db.selectFrom('relay_outbox').select('payload').where('target_id', '=', windowed).execute();
      assert.deepEqual(
        queued.map((row) => row.payload.title),
        ['File June'],
      );
      // An import batch (a file imported from the web app or the CLI) asks the same of its targets.
      await a.ctx.db.deleteFrom('relay_outbox').execute();
      const { importBatch } = await import('../scrobbling/imports/batch.ts');
      const batchListens = [
        { artist: 'Importer', title: 'Batch June', listenedAt: '2025-06-12T10:00:00Z', submitted: {} },
        { artist: 'Importer', title: 'Batch May', listenedAt: '2025-05-12T10:00:00Z', submitted: {} },
      ];
      const batch = await importBatch(a.ctx.db, a.ctx.config, alice.userId, {
        fingerprint: 'b'.repeat(64),
        format: 'listenbrainz',
        from: 0,
        records: batchListens.length,
        listens: batchListens,
        complete: true,
      });
      assert.deepEqual([batch.stored, batch.duplicate, batch.ignored], [2, 0, 0]);
      assert.equal((await status(plain)).queued, 0);
      const batchQueued = await a.ctx.db.selectFrom('relay_outbox').select('payload').where('target_id', '=', windowed).execute();
      assert.deepEqual(
        batchQueued.map((row) => row.payload.title),
        ['Batch June'],
      );
      await removeTarget(plain);
      await removeTarget(windowed);
    });

    test('targets are checked, limited and private', async () => {
      const bad = await a.procedure('app.svc.relay.addTarget', { kind: 'maloja', name: 'x', baseUrl: 'ftp://nope', secret: 'k' }, alice.token);
      assert.deepEqual([bad.status, bad.body.error], [400, 'InvalidRequest']);
      const noSecret = await a.procedure('app.svc.relay.addTarget', { kind: 'listenbrainz', name: 'x', baseUrl: proxy.url }, alice.token);
      assert.deepEqual([noSecret.status, noSecret.body.error], [400, 'InvalidRequest']);
      const unknown = await a.procedure('app.svc.relay.removeTarget', { id: '00000000-0000-4000-8000-000000000000' }, alice.token);
      assert.deepEqual([unknown.status, unknown.body.error], [404, 'NotFound']);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await addTarget({ kind: 'maloja', name: `t${i}`, baseUrl: proxy.url, secret: 'k' }));
      const eleventh = await a.procedure('app.svc.relay.addTarget', { kind: 'maloja', name: 't10', baseUrl: proxy.url, secret: 'k' }, alice.token);
      assert.deepEqual([eleventh.status, eleventh.body.error], [409, 'LimitExceeded']);
      const listed = await a.query('app.svc.relay.listTargets', {}, alice.token);
      assert.equal(listed.body.targets.length, 10);
      assert.ok(!JSON.stringify(listed.body).includes('"k"'), 'no secret is shown');
      const other = await a.signup('mallory');
      assert.equal((await a.query('app.svc.relay.getTargetStatus', { id: ids[0]! }, other.token)).status, 404);
      for (const id of ids) await removeTarget(id);
    });
  });
}
