import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { jsonRequest, startTestApp, oneBackend, type HttpResult, type TestApp } from '../testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../../toolkit/limits-config.ts';
import { registerRateLimits } from './rate-limits.ts';
import { testRedisReachable, TEST_REDIS_URL } from './redis-testing.ts';

const REDIS_URL = TEST_REDIS_URL;
const redisReachable = await testRedisReachable();
const PASSWORD = 'correct horse battery';

/** Limits are about requests, not storage: one backend is enough. */
const backend = oneBackend();

/** Defaults no test reaches, lowered by each suite for the budget it tests. */
const limits = (overrides: Partial<RateLimitConfig>): RateLimitConfig => ({
  ...DEFAULT_RATE_LIMITS,
  redisUrl: undefined,
  signinAttempts: 1000,
  ...overrides,
});

/** One app per suite, with the given limits. */
function withApp(rateLimits: RateLimitConfig): () => TestApp {
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp(backend, { rateLimits });
  });
  after(() => app?.close());
  return () => app!;
}

const login = (app: TestApp, identifier: string, password: string) => app.request('POST', '/auth/login', { body: { identifier, password } });

/** A request from another loopback address, as a second client would come: its status and body. */
function requestFrom(localAddress: string, url: string, method = 'GET', json?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = json === undefined ? {} : { 'content-type': 'application/json' };
    const request = http.request(url, { method, localAddress, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

async function loginFrom(localAddress: string, app: TestApp, identifier: string, password: string): Promise<number> {
  return (await requestFrom(localAddress, `${app.apiUrl}/auth/login`, 'POST', { identifier, password })).status;
}

function assertRefused(result: HttpResult, limit: number): void {
  assert.equal(result.status, 429);
  assert.match(result.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  assert.equal(result.headers.get('x-ratelimit-limit'), String(limit));
  assert.equal(result.headers.get('x-ratelimit-remaining'), '0');
}

describe('sign-in limits: failures per account and IP', () => {
  const app = withApp(limits({ signinFailures: 3 }));

  test('failures lock the account from that IP, in the XRPC error shape with Retry-After; the right password waits too', async () => {
    await app().signup('rl-alice', PASSWORD);
    for (let i = 0; i < 3; i++) assert.equal((await login(app(), 'rl-alice', 'wrong')).status, 401);
    const locked = await login(app(), 'rl-alice', PASSWORD);
    assertRefused(locked, 3);
    assert.equal(locked.body.error, 'RateLimitExceeded');
    assert.match(locked.body.message, /retry in \d+ seconds/);
    assert.equal((await login(app(), '@RL-Alice', PASSWORD)).status, 429, 'the same account however it is written');
  });

  test("others' failures do not lock the owner out: another address still signs in", async () => {
    assert.equal(await loginFrom('127.0.0.2', app(), 'rl-alice', PASSWORD), 200);
  });

  test('successful sign-ins and other accounts are not counted', async () => {
    await app().signup('rl-bob', PASSWORD);
    for (let i = 0; i < 5; i++) assert.equal((await login(app(), 'rl-bob', PASSWORD)).status, 200);
    assert.equal((await login(app(), 'rl-bob', 'wrong')).status, 401);
  });
});

describe('sign-in limits: attempts per IP', () => {
  const app = withApp(limits({ signinAttempts: 3 }));

  test('sign-ups and sign-ins share the budget; each answer tells what is left', async () => {
    const first = await app().request('POST', '/auth/signup', { body: { handle: 'rl-carol', password: PASSWORD } });
    assert.equal(first.status, 201);
    assert.deepEqual(
      ['x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => first.headers.get(name)),
      ['3', '2'],
    );
    assert.match(first.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
    assert.equal((await login(app(), 'rl-carol', PASSWORD)).status, 200);
    assert.equal((await login(app(), 'nobody', PASSWORD)).status, 401);
    const refused = await login(app(), 'rl-carol', PASSWORD);
    assertRefused(refused, 3);
    assert.equal(refused.body.error, 'RateLimitExceeded');
  });
});

describe('sign-in limits: Last.fm getMobileSession and the authorization page', () => {
  const app = withApp(limits({ signinFailures: 2 }));
  let dave: ClientAccount;
  const mobileSession = (password: string, format?: 'json') =>
    lastfmCall(
      app(),
      { method: 'auth.getMobileSession', api_key: dave.key, username: dave.handle, password, ...(format ? { format } : {}) },
      { secret: dave.sharedSecret },
    );

  before(async () => {
    dave = await createClientAccount(app(), 'rl-dave');
  });

  test('wrong passwords lock it with error 29, in JSON or XML as asked', async () => {
    for (let i = 0; i < 2; i++) assert.deepEqual((await mobileSession('wrong', 'json')).body.error, 4);
    const json = await mobileSession(PASSWORD, 'json');
    assert.deepEqual([json.status, json.body.error], [429, 29]);
    assert.match(json.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    const xml = await mobileSession(PASSWORD);
    assert.equal(xml.status, 429);
    assert.match(xml.body, /<lfm status="failed">\s*<error code="29">/);
    // A signed GET, and the method in another letter case, meet the same lock.
    const params = { method: 'auth.getmobilesession', api_key: dave.key, username: dave.handle, password: PASSWORD, format: 'json' };
    const byGet = await lastfmCall(app(), params, { secret: dave.sharedSecret, httpMethod: 'GET' });
    assert.deepEqual([byGet.status, byGet.body.error], [429, 29]);
  });

  test('the older authToken sign-in counts as a password does: wrong tokens lock the account, then the right one waits', async () => {
    const erin = await createClientAccount(app(), 'rl-erin');
    const signIn = (authToken: string) =>
      lastfmCall(
        app(),
        { method: 'auth.getMobileSession', api_key: erin.key, username: erin.handle, authToken, format: 'json' },
        { secret: erin.sharedSecret },
      );
    for (let i = 0; i < 2; i++) assert.deepEqual((await signIn('0'.repeat(32))).body.error, 4);
    const refused = await signIn(md5(erin.handle + md5(erin.key)));
    assert.deepEqual([refused.status, refused.body.error], [429, 29]);
  });

  test('the lock holds on every door that checks the password: the authorization page too', async () => {
    const { body } = await lastfmCall(app(), { method: 'auth.getToken', api_key: dave.key, format: 'json' }, { secret: dave.sharedSecret });
    const page = await jsonRequest<any>(`${app().scrobblerUrl}/api/auth/`, 'POST', {
      body: new URLSearchParams({ api_key: dave.key, token: body.token, identifier: dave.handle, password: PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(page.status, 429);
    assert.equal(page.body.error, 'RateLimitExceeded');
  });
});

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** An Audioscrobbler handshake with an API key as the password: its answer's lines. */
async function handshake(app: TestApp, handle: string, key: string): Promise<HttpResult<string>> {
  const t = String(Math.floor(Date.now() / 1000));
  return jsonRequest<string>(`${app.scrobblerUrl}/?hs=true&p=1.2&c=tst&v=1.0&u=${handle}&t=${t}&a=${md5(md5(key) + t)}`, 'GET');
}

const listen = { listen_type: 'playing_now', payload: [{ track_metadata: { artist_name: 'Daft Punk', track_name: 'Get Lucky' } }] };
const submitListen = (app: TestApp, key: string) =>
  jsonRequest<any>(`${app.scrobblerUrl}/1/submit-listens`, 'POST', { headers: { authorization: `Token ${key}` }, body: listen });

describe('sign-in limits: Subsonic, the Audioscrobbler handshake and password confirmations count against the account too', () => {
  const app = withApp(limits({ signinFailures: 3 }));
  let kate: ClientAccount;
  const subsonicUrl = (params: Record<string, string>) =>
    `${app().apiUrl}/rest/getMusicFolders.view?${new URLSearchParams({ f: 'json', v: '1.16.1', c: 'test', ...params })}`;
  const salted = (key: string) => {
    const s = randomUUID().slice(0, 8);
    return { t: md5(key + s), s };
  };
  const subsonic = (params: Record<string, string>) => jsonRequest<any>(subsonicUrl(params), 'GET');

  before(async () => {
    kate = await createClientAccount(app(), 'rl-kate');
  });

  test('wrong t/s guesses are error 40, then the account is locked from that address: the right key waits too, by t/s or p', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await subsonic({ u: kate.handle, ...salted('0'.repeat(32)) })).body['subsonic-response'].error.code, 40);
    const locked = await subsonic({ u: kate.handle, ...salted(kate.key) });
    assert.equal(locked.status, 200, 'Subsonic clients expect HTTP 200 for every answer');
    assert.equal(locked.body['subsonic-response'].status, 'failed');
    assert.equal(locked.body['subsonic-response'].error.code, 40);
    assert.match(locked.body['subsonic-response'].error.message, /too many failed sign-ins.*retry in \d+ seconds/i);
    assert.match(locked.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await subsonic({ u: kate.handle.toUpperCase(), p: kate.key })).body['subsonic-response'].error.code, 40);
    const xml = await jsonRequest<string>(subsonicUrl({ f: 'xml', u: kate.handle, p: kate.key }), 'GET');
    assert.match(xml.body, /<error code="40" message="[^"]*retry in \d+ seconds"/);
    const formPost = await jsonRequest<any>(`${app().apiUrl}/rest/getMusicFolders.view`, 'POST', {
      body: new URLSearchParams({ f: 'json', v: '1.16.1', c: 'test', u: kate.handle, p: kate.key }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(formPost.body['subsonic-response'].error.code, 40, 'u in a form body (formPost) names the account too');
  });

  test('the owner signs in from another address, and other accounts from this one', async () => {
    const elsewhere = await requestFrom('127.0.0.2', subsonicUrl({ u: kate.handle, p: kate.key }));
    assert.equal(JSON.parse(elsewhere.body)['subsonic-response'].status, 'ok');
    const liam = await createClientAccount(app(), 'rl-liam');
    assert.equal((await subsonic({ u: liam.handle, ...salted(liam.key) })).body['subsonic-response'].status, 'ok');
  });

  test('Audioscrobbler: BADAUTH counts; once locked, the right key gets a FAILED line with status 429', async () => {
    const mona = await createClientAccount(app(), 'rl-mona');
    for (let i = 0; i < 3; i++) assert.equal((await handshake(app(), mona.handle, '0'.repeat(32))).body, 'BADAUTH\n');
    const locked = await handshake(app(), mona.handle, mona.key);
    assertRefused(locked, 3);
    assert.match(locked.body, /^FAILED Rate limit exceeded, retry in \d+ seconds\n$/);
  });

  test('confirming the password (changePassword, deleteAccount) counts too: a stolen token buys no more guesses', async () => {
    const { token } = await app().signup('rl-nina', PASSWORD);
    const changePassword = (currentPassword: string) =>
      app().procedure('app.svc.actor.changePassword', { currentPassword, newPassword: 'another long password' }, token);
    for (let i = 0; i < 3; i++) assert.equal((await changePassword('wrong')).status, 403);
    const locked = await changePassword(PASSWORD);
    assertRefused(locked, 3);
    assert.equal(locked.body.error, 'RateLimitExceeded');
    assert.equal((await app().procedure('app.svc.actor.deleteAccount', { handle: 'rl-nina', password: PASSWORD }, token)).status, 429);
    assert.equal((await login(app(), 'rl-nina', PASSWORD)).status, 429, 'the same lock as signing in');
  });
});

describe('submission limits per account', () => {
  const app = withApp(limits({ submissions: 2 }));
  let erin: ClientAccount;
  let frank: ClientAccount;

  before(async () => {
    erin = await createClientAccount(app(), 'rl-erin');
    frank = await createClientAccount(app(), 'rl-frank');
  });

  test("ListenBrainz: LB's headers, then a 429 in LB's shape; another account is not affected", async () => {
    const first = await submitListen(app(), erin.key);
    assert.equal(first.status, 200);
    assert.deepEqual(
      ['x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => first.headers.get(name)),
      ['2', '1'],
    );
    const resetIn = Number(first.headers.get('x-ratelimit-reset-in'));
    assert.ok(resetIn > 0);
    assert.ok(Number(first.headers.get('x-ratelimit-reset')) > Date.now() / 1000, 'Reset is a Unix time');
    assert.equal((await submitListen(app(), erin.key)).status, 200);
    const refused = await submitListen(app(), erin.key);
    assertRefused(refused, 2);
    assert.deepEqual(refused.body, { code: 429, error: refused.body.error });
    assert.match(refused.body.error, /Rate limit exceeded/);
    assert.equal((await submitListen(app(), frank.key)).status, 200);
  });

  test('Last.fm: every call counts against the account; over it, error 29', async () => {
    const call = (account: ClientAccount) =>
      lastfmCall(app(), { method: 'auth.getToken', api_key: account.key, format: 'json' }, { secret: account.sharedSecret });
    assert.equal((await call(frank)).status, 200, "frank's ListenBrainz submission spent one of the account's two");
    const refused = await call(frank);
    assert.deepEqual([refused.status, refused.body.error], [429, 29]);
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });

  test('Audioscrobbler: a FAILED line with status 429', async () => {
    const gail = await createClientAccount(app(), 'rl-gail');
    const session = (await handshake(app(), gail.handle, gail.key)).body.split('\n')[1]!;
    const nowPlaying = () =>
      jsonRequest<string>(`${app().scrobblerUrl}/np_1.2`, 'POST', {
        body: new URLSearchParams({ s: session, a: 'Daft Punk', t: 'Get Lucky' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    for (let i = 0; i < 2; i++) assert.equal((await nowPlaying()).body, 'OK\n');
    const refused = await nowPlaying();
    assertRefused(refused, 2);
    assert.match(refused.body, /^FAILED Rate limit exceeded, retry in \d+ seconds\n$/);
  });

  test('XRPC createScrobble counts per account', async () => {
    const hugo = await createClientAccount(app(), 'rl-hugo');
    const play = { title: 'One More Time', artist: 'Daft Punk' };
    for (let i = 0; i < 2; i++) assert.equal((await app().procedure('app.svc.scrobble.createScrobble', play, hugo.token)).status, 200);
    const refused = await app().procedure('app.svc.scrobble.createScrobble', play, hugo.token);
    assertRefused(refused, 2);
    assert.equal(refused.body.error, 'RateLimitExceeded');
  });
});

describe('submission limits: many keys of one account share its budget', () => {
  const app = withApp(limits({ submissions: 5 }));

  test('20 keys: 5 submissions accepted in all, then every key, session and protocol of the account is refused; another account is not', async () => {
    const ines = await createClientAccount(app(), 'rl-ines');
    const keys = [ines.key];
    for (let i = 1; i < 20; i++) keys.push((await app().procedure('app.svc.apikey.createApikey', { name: `player ${i}` }, ines.token)).body.key);
    // The handshake is a sign-in, not a submission: its session is made before the budget is spent.
    const session = (await handshake(app(), ines.handle, keys[7]!)).body.split('\n')[1]!;
    const statuses = [];
    for (const key of keys) statuses.push((await submitListen(app(), key)).status);
    assert.deepEqual(statuses, [...Array(5).fill(200), ...Array(15).fill(429)]);

    const maloja = await jsonRequest<any>(`${app().scrobblerUrl}/apis/mlj_1/newscrobble`, 'POST', {
      body: { artist: 'Daft Punk', title: 'Get Lucky', key: keys[19] },
    });
    assert.deepEqual([maloja.status, maloja.body.error?.type], [429, 'rate_limit_exceeded']);
    const lastfm = await lastfmCall(app(), { method: 'auth.getToken', api_key: keys[3]!, format: 'json' }, { secret: ines.sharedSecret });
    assert.deepEqual([lastfm.status, lastfm.body.error], [429, 29]);
    const audioscrobbler = await jsonRequest<string>(`${app().scrobblerUrl}/np_1.2`, 'POST', {
      body: new URLSearchParams({ s: session, a: 'Daft Punk', t: 'Get Lucky' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(audioscrobbler.status, 429);

    const jack = await createClientAccount(app(), 'rl-jack');
    assert.equal((await submitListen(app(), jack.key)).status, 200);
  });
});

describe('read limits per IP', () => {
  const app = withApp(limits({ reads: 2 }));

  test('public reads spend the budget, then 429; health checks never do', async () => {
    const first = await app().request('GET', '/openapi.json');
    assert.deepEqual(
      ['x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => first.headers.get(name)),
      ['2', '1'],
    );
    assert.equal((await app().query('app.svc.server.getInfo')).headers.get('x-ratelimit-remaining'), '0');
    const refused = await app().request('GET', '/openapi.json');
    assertRefused(refused, 2);
    assert.equal(refused.body.error, 'RateLimitExceeded');
    assert.equal((await app().request('GET', '/health')).status, 200);
  });

  test('Subsonic answers its own failed document (code 0, HTTP 200 as its clients expect) with Retry-After', async () => {
    // The test before spent this address's reads.
    const refused = await app().request('GET', '/rest/ping.view?f=json&u=x&p=y&v=1.16.1&c=test');
    assert.equal(refused.status, 200);
    assert.equal(refused.body['subsonic-response'].status, 'failed');
    assert.equal(refused.body['subsonic-response'].error.code, 0);
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  });

  test('ListenBrainz reads on the scrobbler host have their own budget in memory', async () => {
    const count = await jsonRequest(`${app().scrobblerUrl}/1/user/nobody/listen-count`, 'GET');
    assert.equal(count.headers.get('x-ratelimit-limit'), '2');
    assert.equal(count.headers.get('x-ratelimit-reset-in') !== null, true);
  });
});

describe('a shared Redis store', { skip: !redisReachable && `no Redis at ${REDIS_URL}` }, () => {
  const redisPrefix = `earshot-test:${randomUUID()}:`;
  const shared = limits({ reads: 3, signinFailures: 2, submissions: 2, redisUrl: REDIS_URL, redisPrefix });
  const first = withApp(shared);
  const second = withApp(shared);
  const redis = new Redis(REDIS_URL);

  after(async () => {
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test('two servers sharing REDIS_URL share one budget', async () => {
    assert.equal((await first().request('GET', '/openapi.json')).headers.get('x-ratelimit-remaining'), '2');
    assert.equal((await second().request('GET', '/openapi.json')).headers.get('x-ratelimit-remaining'), '1');
    assert.equal((await first().request('GET', '/openapi.json')).headers.get('x-ratelimit-remaining'), '0');
    assertRefused(await second().request('GET', '/openapi.json'), 3);
  });

  test("an account's keys share one submissions budget on both hosts: ListenBrainz spends what XRPC createScrobble then lacks", async () => {
    const olga = await createClientAccount(first(), 'rl-olga');
    const { body: secondKey } = await first().procedure('app.svc.apikey.createApikey', { name: 'second player' }, olga.token);
    assert.equal((await submitListen(first(), olga.key)).status, 200);
    assert.equal((await submitListen(first(), secondKey.key)).status, 200);
    assertRefused(await first().procedure('app.svc.scrobble.createScrobble', { title: 'One More Time', artist: 'Daft Punk' }, olga.token), 2);
  });

  test('keys carry the prefix and never a credential, a handle or an account id in clear', async () => {
    const keys = await redis.keys(`${redisPrefix}*`);
    assert.ok(keys.length > 0);
    for (const key of keys) assert.match(key.slice(redisPrefix.length), /^(reads|submissions|signinAttempts|signinFailures):[0-9a-f.:]+$/);
  });

  test('an attempt while locked out restarts the lockout; once it ends, the right password works', async () => {
    await first().signup('rl-gina', PASSWORD);
    for (let i = 0; i < 2; i++) assert.equal((await login(first(), 'rl-gina', 'wrong')).status, 401);
    assert.equal((await login(second(), 'rl-gina', PASSWORD)).status, 429, 'the lock is seen by the other server');
    const [lock] = await redis.keys(`${redisPrefix}signinFailures:*`);
    // As if the lockout had almost run out: a further attempt puts it back to a whole window.
    await redis.pexpire(lock!, 1000);
    assert.equal((await login(first(), 'rl-gina', PASSWORD)).status, 429);
    assert.ok((await redis.pttl(lock!)) > 1000);
    await redis.del(lock!);
    assert.equal((await login(first(), 'rl-gina', PASSWORD)).status, 200);
  });
});

test('an unreachable REDIS_URL stops the start with one clear line', async () => {
  const app = Fastify();
  registerRateLimits(app, limits({ redisUrl: 'redis://:hunter2@127.0.0.1:1' }), async () => null);
  await assert.rejects(
    async () => app.ready(),
    (error: Error) => {
      assert.match(error.message, /^REDIS_URL: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 .*unset REDIS_URL/);
      assert.doesNotMatch(error.message, /hunter2|\n/);
      return true;
    },
  );
  await app.close();
});

test('EARSHOT_RATE_LIMITS=off sends no rate-limit header', async () => {
  const app = await startTestApp(backend, { rateLimits: limits({ enabled: false, reads: 1 }) });
  try {
    for (let i = 0; i < 3; i++) {
      const result = await app.request('GET', '/openapi.json');
      assert.deepEqual([result.status, result.headers.get('x-ratelimit-limit')], [200, null]);
    }
  } finally {
    await app.close();
  }
});

test('behind a trusted reverse proxy (EARSHOT_TRUST_PROXY) each forwarded client has its own budget; an untrusted header is ignored', async () => {
  const read = (app: TestApp, forwardedFor: string) => app.request('GET', '/openapi.json', { headers: { 'x-forwarded-for': forwardedFor } });
  const behindProxy = await startTestApp(backend, { rateLimits: limits({ reads: 1 }), trustProxy: ['127.0.0.1'] });
  const direct = await startTestApp(backend, { rateLimits: limits({ reads: 1 }) });
  try {
    assert.equal((await read(behindProxy, '203.0.113.7')).status, 200);
    assert.equal((await read(behindProxy, '203.0.113.8')).status, 200);
    assert.equal((await read(behindProxy, '203.0.113.7')).status, 429);
    // Without a trusted proxy, anyone could name a fresh address per request to escape the limit.
    assert.equal((await read(direct, '203.0.113.7')).status, 200);
    assert.equal((await read(direct, '203.0.113.8')).status, 429);
  } finally {
    await Promise.all([behindProxy.close(), direct.close()]);
  }
});
