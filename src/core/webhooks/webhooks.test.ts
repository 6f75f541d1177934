import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { subsonicClient } from '../../adapters/subsonic/client-testing.ts';
import { settleDetached } from '../../toolkit/background.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import { resolveListenTracks, storeListens } from '../scrobbling/ingest.ts';
import { deliverDueWebhooks, DELIVERY_LOG_SIZE, type WebhookSenderOptions } from './sender.ts';
import { startWebhookReceiver, timePasses, verifySignature, type WebhookReceiver } from './webhooks-testing.ts';

/** Backoffs far longer than any test, but shorter than the Retry-After the receiver asks for: a wait is ended by timePasses, never by the clock. */
const FAST: WebhookSenderOptions = { leaseMs: 600_000, maxAttempts: 4, backoffBaseMs: 60_000, backoffMaxMs: 60_000 };

describeWithApp(
  'webhooks',
  (app) => {
    let receiver: WebhookReceiver;
    let alice: ClientAccount;
    let hookId: string;

    before(async () => {
      receiver = await startWebhookReceiver();
      alice = await createClientAccount(app(), 'hookalice');
    });
    after(() => receiver?.close());

    const deliveries = async () => (await app().query('app.svc.webhook.listDeliveries', { id: hookId }, alice.token)).body.deliveries;
    const play = async (title: string) => {
      const created = await app().procedure('app.svc.scrobble.createScrobble', { artist: 'Hook Artist', title }, alice.token);
      assert.equal(created.status, 200, JSON.stringify(created.body));
    };

    test('a hook is created with a secret shown once, never listed', async () => {
      const created = await app().procedure('app.svc.webhook.createHook', { url: receiver.url, events: ['scrobble', 'nowPlaying', 'love'] }, alice.token);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.match(created.body.secret, /^whsec_[\w-]{43}$/);
      receiver.secret = created.body.secret;
      hookId = created.body.hook.id;
      const listed = await app().query('app.svc.webhook.listHooks', {}, alice.token);
      assert.equal(listed.body.hooks.length, 1);
      assert.equal(JSON.stringify(listed.body).includes(receiver.secret), false);
      const stored = await app().ctx.db.selectFrom('webhooks').select('secret_sealed').executeTakeFirstOrThrow();
      assert.equal(stored.secret_sealed.includes(receiver.secret), false);
    });

    test('a stored play is delivered signed, verifiable by the receiver, and logged', async () => {
      await play('Hooked 1');
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 1);
      const [got] = receiver.received.splice(0);
      assert.ok(got?.verified, 'the signature verifies over the raw body and timestamp');
      assert.equal(got.headers['earshot-event'], 'scrobble');
      assert.equal(got.headers['content-type'], 'application/json');
      const body = got.body as { event: string; deliveryId: string; user: { handle: string }; scrobble: { title: string; artist: string }; content: string };
      assert.equal(body.event, 'scrobble');
      assert.equal(body.deliveryId, got.headers['earshot-delivery']);
      assert.equal(body.user.handle, 'hookalice');
      assert.deepEqual([body.scrobble.artist, body.scrobble.title], ['Hook Artist', 'Hooked 1']);
      assert.equal(body.content, 'hookalice played Hook Artist – Hooked 1');
      const [logged] = await deliveries();
      assert.deepEqual([logged.state, logged.status, logged.response, logged.attempts, logged.deliveryId], ['delivered', 200, 'ok', 1, body.deliveryId]);
      assert.equal(typeof logged.durationMs, 'number');
    });

    test('a signature fails for another body, another secret or an old timestamp', () => {
      const body = '{"event":"test"}';
      const now = Math.floor(Date.now() / 1000);
      const header = (secret: string, t: number, text = body) => {
        const mac = createHmac('sha256', secret).update(`${t}.${text}`).digest('hex');
        return `t=${t},v1=${mac}`;
      };
      assert.equal(verifySignature('s', header('s', now), body), true);
      assert.equal(verifySignature('s', header('s', now), `${body} `), false);
      assert.equal(verifySignature('other', header('s', now), body), false);
      assert.equal(verifySignature('s', header('s', now - 600), body), false);
    });

    test('imported and synced-in plays are history, not news: no delivery is queued for them', async () => {
      const { ctx } = app();
      for (const [i, source] of ['import:listenbrainz', 'sync:lastfm'].entries()) {
        const listens = [{ artist: 'Hook Artist', title: `History ${i}`, listenedAt: new Date(Date.UTC(2020, 0, 1 + i)) }];
        const tracks = await resolveListenTracks(ctx.db, ctx.config, listens);
        const [outcome] = await inTransaction(ctx.db, (tx) => storeListens(tx, alice.userId, listens, tracks, source));
        assert.equal(outcome?.status, 'stored', source);
      }
      assert.equal(await deliverDueWebhooks(ctx, FAST), 0);
      assert.deepEqual(receiver.received, []);
    });

    test('a failed delivery is retried after a backoff, honouring Retry-After, with the same delivery id', async () => {
      receiver.script.push({ status: 500, body: 'boom' }, { status: 503, headers: { 'retry-after': '600' }, body: 'busy' });
      await play('Hooked 2');
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 0);
      let [logged] = await deliveries();
      assert.deepEqual([logged.state, logged.status, logged.response, logged.attempts], ['queued', 500, 'boom', 1]);
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 0, 'held for its backoff');
      assert.equal(receiver.received.length, 1);
      await timePasses(app().ctx);
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 0);
      [logged] = await deliveries();
      assert.deepEqual([logged.state, logged.status, logged.attempts], ['queued', 503, 2]);
      // The receiver asked for ten minutes: more than the one-minute backoff, so its wait is the one kept.
      const { rows } = await sql<{
        waits: boolean;
      }>`select bool_and(next_attempt_at > now() + interval '5 minutes') as waits from webhook_deliveries where state = 'queued'`.execute(app().ctx.db);
      assert.equal(rows[0]?.waits, true);
      await timePasses(app().ctx);
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 1);
      [logged] = await deliveries();
      assert.deepEqual([logged.state, logged.status, logged.attempts], ['delivered', 200, 3]);
      const ids = new Set(receiver.received.splice(0).map((got) => got.headers['earshot-delivery']));
      assert.equal(ids.size, 1, 'every try carries the one delivery id');
    });

    test('a delivery out of tries is dead', async () => {
      receiver.script.push(...Array.from({ length: FAST.maxAttempts }, () => ({ status: 500, body: 'down' })));
      await play('Hooked 3');
      for (let i = 0; i < FAST.maxAttempts; i++) {
        await deliverDueWebhooks(app().ctx, FAST);
        await timePasses(app().ctx);
      }
      const [logged] = await deliveries();
      assert.deepEqual([logged.state, logged.attempts], ['dead', FAST.maxAttempts]);
      receiver.received.splice(0);
    });

    test('now playing and love are delivered too', async () => {
      const nowPlaying = await jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
        headers: { authorization: `Token ${alice.key}` },
        body: { listen_type: 'playing_now', payload: [{ track_metadata: { artist_name: 'Hook Artist', track_name: 'Hooked 1' } }] },
      });
      assert.equal(nowPlaying.status, 200);
      await settleDetached();
      const song = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Hooked 1').executeTakeFirstOrThrow();
      assert.equal((await app().procedure('app.svc.song.likeSong', { id: song.id }, alice.token)).status, 200);
      assert.equal((await app().procedure('app.svc.song.likeSong', { id: song.id }, alice.token)).status, 200);
      assert.equal(await deliverDueWebhooks(app().ctx, FAST), 2, 'liking again is no event');
      const got = receiver.received.splice(0);
      assert.ok(got.every((delivery) => delivery.verified));
      assert.deepEqual(
        got.map((delivery) => [delivery.body.event, delivery.body.text]),
        [
          ['nowPlaying', 'hookalice is playing Hook Artist – Hooked 1'],
          ['love', 'hookalice loves Hook Artist – Hooked 1'],
        ],
      );
    });

    test("a Subsonic star of a song is a love event, its unstar an unlove; an album's star is none", async () => {
      const created = await app().procedure('app.svc.scrobble.createScrobble', { artist: 'Hook Artist', title: 'Starred 1', album: 'Hook Album' }, alice.token);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const song = await app().ctx.db.selectFrom('tracks').select(['id', 'album_id']).where('title', '=', 'Starred 1').executeTakeFirstOrThrow();
      assert.ok(song.album_id);
      receiver.received.splice(0);
      await deliverDueWebhooks(app().ctx, FAST);
      receiver.received.splice(0);
      const subsonic = subsonicClient(app(), { apiKey: alice.key });
      /** What the receiver gets once due deliveries are sent (one action at a time: a batch's deliveries go side by side). */
      const delivered = async () => {
        await deliverDueWebhooks(app().ctx, FAST);
        return receiver.received.splice(0).map((delivery) => [delivery.body.event, delivery.body.loved, (delivery.body.track as { title: string }).title]);
      };
      assert.equal((await subsonic.star({ id: song.id })).status, 'ok');
      assert.deepEqual(await delivered(), [['love', true, 'Starred 1']]);
      assert.equal((await subsonic.star({ id: song.id })).status, 'ok');
      assert.equal((await subsonic.star({ albumId: song.album_id })).status, 'ok');
      assert.deepEqual(await delivered(), [], 'starring again and an album star are no events');
      assert.equal((await subsonic.unstar({ id: song.id })).status, 'ok');
      assert.deepEqual(await delivered(), [['love', false, 'Starred 1']]);
    });

    test('the test event is sent at once, once, and answered with its log entry', async () => {
      receiver.script.push({ status: 418, body: 'x'.repeat(1000) });
      const failed = await app().procedure('app.svc.webhook.testHook', { id: hookId }, alice.token);
      assert.equal(failed.status, 200, JSON.stringify(failed.body));
      assert.deepEqual([failed.body.event, failed.body.state, failed.body.status, failed.body.response.length], ['test', 'dead', 418, 300]);
      const sent = await app().procedure('app.svc.webhook.testHook', { id: hookId }, alice.token);
      assert.deepEqual([sent.body.state, sent.body.status], ['delivered', 200]);
      const got = receiver.received.splice(0);
      assert.equal(got.length, 2);
      assert.ok(got[1]!.verified);
      assert.match(String(got[1]!.body.text), /test event/);
    });

    test(`the log keeps a hook's newest ${DELIVERY_LOG_SIZE} deliveries`, async () => {
      for (let i = 0; i < DELIVERY_LOG_SIZE + 3; i++) await app().procedure('app.svc.webhook.testHook', { id: hookId }, alice.token);
      receiver.received.splice(0);
      assert.equal((await deliveries()).length, DELIVERY_LOG_SIZE);
    });

    test('another account sees none of it; an unknown hook is NotFound', async () => {
      const bob = await createClientAccount(app(), 'hookbob');
      assert.equal((await app().query('app.svc.webhook.listDeliveries', { id: hookId }, bob.token)).body.error, 'NotFound');
      assert.equal((await app().procedure('app.svc.webhook.testHook', { id: hookId }, bob.token)).status, 404);
      assert.equal((await app().procedure('app.svc.webhook.deleteHook', { id: hookId }, bob.token)).status, 404);
      assert.deepEqual((await app().query('app.svc.webhook.listHooks', {}, bob.token)).body.hooks, []);
    });

    test('an account may have 10 hooks; bad URLs are refused', async () => {
      const bob = await createClientAccount(app(), 'hookcarol');
      const create = (url: string) => app().procedure('app.svc.webhook.createHook', { url, events: ['scrobble'] }, bob.token);
      for (const url of ['ftp://example.org/x', 'not a url', 'http://user:pw@127.0.0.1/x']) {
        const refused = await create(url);
        assert.deepEqual([refused.status, refused.body.error], [400, 'InvalidRequest'], url);
      }
      for (let i = 0; i < 10; i++) assert.equal((await create(`${receiver.url}?n=${i}`)).status, 200);
      assert.deepEqual([(await create(receiver.url)).status, (await create(receiver.url)).body.error], [409, 'LimitExceeded']);
    });

    test('removing a hook takes its queue and log along', async () => {
      await play('Hooked 4');
      assert.equal((await app().procedure('app.svc.webhook.deleteHook', { id: hookId }, alice.token)).status, 200);
      const left = await app().ctx.db.selectFrom('webhook_deliveries').select('id').where('hook_id', '=', hookId).execute();
      assert.deepEqual(left, []);
    });
  },
  { webhooks: { enabled: false, allowPrivate: true } },
);

describeWithApp(
  'webhooks without EARSHOT_WEBHOOKS_ALLOW_PRIVATE',
  (app) => {
    test('URLs on loopback and private addresses are refused', async () => {
      const { token } = await app().signup('ssrfuser');
      for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://localhost:8000/']) {
        const refused = await app().procedure('app.svc.webhook.createHook', { url, events: ['scrobble'] }, token);
        assert.deepEqual([refused.status, refused.body.error], [400, 'InvalidRequest'], url);
        assert.match(refused.body.message, /public address/);
      }
    });
  },
  {},
  // Refusing a URL is decided before anything is stored.
  { storage: 'one' },
);
