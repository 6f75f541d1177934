/**
 * Live events (/events): a play or a now-playing submitted to one server reaches the streams of
 * another on the same PostgreSQL, through NOTIFY and through Redis, and never one that was not
 * stored; the stream's filters and refusals.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig, type Config } from '../../toolkit/config.ts';
import type { AppContext } from '../../core/context.ts';
import { describeWithApp, jsonRequest, startTestApp, testBackends, type TestApp } from '../testing.ts';
import { startHosts, type RunningHosts } from '../server.ts';
import { STREAMS_PER_CLIENT } from '../../adapters/http/live-events-endpoint.ts';
import { openLiveEvents } from './live-testing.ts';
import { testRedisReachable, TEST_REDIS_URL } from './redis-testing.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisReachable = await testRedisReachable();

/** A second server process's worth on app's database: its own hosts, its own live bus and transport. */
async function secondServer(app: TestApp): Promise<{ apiUrl: string; hosts: RunningHosts }> {
  const ctx: AppContext = { ...app.ctx, config: { ...app.ctx.config, port: 0, scrobblerPort: 0 } };
  const hosts = await startHosts(ctx, ['api', 'scrobbler'], false);
  return { apiUrl: hosts.urls.api!, hosts };
}

const transports: { name: string; skip: string | false; overrides: () => Partial<Config> }[] = [
  { name: 'PostgreSQL NOTIFY', skip: !databaseUrl && 'needs TEST_DATABASE_URL', overrides: () => ({ databaseUrl }) },
  {
    name: 'Redis pub/sub',
    skip: !redisReachable && `needs Redis at ${TEST_REDIS_URL}`,
    overrides: () => ({
      rateLimits: {
        ...loadConfig({}).rateLimits,
        enabled: false,
        redisUrl: TEST_REDIS_URL,
        redisPrefix: `earshot-live-test-${randomBytes(4).toString('hex')}:`,
      },
    }),
  },
];

for (const transport of transports) {
  describe(`live events between two servers on one PostgreSQL, through ${transport.name}`, { skip: transport.skip }, () => {
    let a: TestApp;
    let b: Awaited<ReturnType<typeof secondServer>>;
    let token: string;

    before(async () => {
      const postgres = testBackends().find((backend) => backend.name === 'postgres')!;
      a = await startTestApp(postgres, transport.overrides());
      b = await secondServer(a);
      token = (await a.signup(`live${randomBytes(3).toString('hex')}`)).token;
    });
    after(async () => {
      await b?.hosts.close();
      await a?.close();
    });

    test("a play and a now-playing sent to one server reach the other's stream", async () => {
      const stream = await openLiveEvents(`${b.apiUrl}/events`);
      try {
        const created = await a.procedure('app.svc.scrobble.createScrobble', { artist: 'Live Artist', title: 'Across' }, token);
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const play = await stream.next((event) => event.type === 'scrobble' && event.data.title === 'Across');
        assert.equal(play.data.artist, 'Live Artist');
        assert.equal(typeof play.data.scrobbleId, 'string');
        const apiKey = await a.procedure('app.svc.apikey.createApikey', { name: 'player' }, token);
        const playing = await jsonRequest(`${a.scrobblerUrl}/1/submit-listens`, 'POST', {
          headers: { authorization: `Token ${apiKey.body.key}` },
          body: { listen_type: 'playing_now', payload: [{ track_metadata: { artist_name: 'Live Artist', track_name: 'Now' } }] },
        });
        assert.equal(playing.status, 200);
        await stream.next((event) => event.type === 'nowPlaying' && event.data.title === 'Now');
      } finally {
        stream.close();
      }
    });
  });
}

describeWithApp('the live events stream', (app) => {
  test('everyone, one user, or the caller; a duplicate is no event', async () => {
    const alice = await app().signup('livealice');
    const bob = await app().signup('livebob');
    const everyone = await openLiveEvents(`${app().apiUrl}/events`);
    const bobs = await openLiveEvents(`${app().apiUrl}/events?user=livebob`);
    const own = await openLiveEvents(`${app().apiUrl}/events?own=true`, { authorization: `Bearer ${alice.token}` });
    try {
      const at = '2025-03-01T12:00:00.000Z';
      for (const [who, title] of [
        [alice, 'A1'],
        [bob, 'B1'],
        [alice, 'A1'],
      ] as const) {
        const created = await app().procedure('app.svc.scrobble.createScrobble', { artist: 'Live', title, timestamp: at }, who.token);
        assert.equal(created.status, 200, JSON.stringify(created.body));
      }
      await everyone.next((event) => event.data.title === 'B1');
      await bobs.next((event) => event.data.title === 'B1');
      await own.next((event) => event.data.title === 'A1');
      await sleep(200);
      assert.deepEqual(
        everyone.events.map((event) => [event.type, event.data.handle, event.data.title]),
        [
          ['scrobble', 'livealice', 'A1'],
          ['scrobble', 'livebob', 'B1'],
        ],
      );
      assert.deepEqual(
        bobs.events.map((event) => event.data.handle),
        ['livebob'],
      );
      assert.deepEqual(
        own.events.map((event) => event.data.handle),
        ['livealice'],
      );
    } finally {
      for (const stream of [everyone, bobs, own]) stream.close();
    }
  });

  test('refusals: own without credentials, an unknown user, too many streams', async () => {
    const response = await fetch(`${app().apiUrl}/events?own=true`);
    assert.deepEqual([response.status, ((await response.json()) as { error: string }).error], [401, 'AuthMissing']);
    assert.equal((await fetch(`${app().apiUrl}/events?user=nobody-here`)).status, 404);
    const carol = await app().signup('livecarol');
    const headers = { authorization: `Bearer ${carol.token}` };
    const streams = await Promise.all(Array.from({ length: STREAMS_PER_CLIENT }, () => openLiveEvents(`${app().apiUrl}/events`, headers)));
    try {
      const refused = await fetch(`${app().apiUrl}/events`, { headers });
      assert.equal(refused.status, 429);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
