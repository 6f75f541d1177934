import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { describeWithApp, jsonRequest, type HttpResult } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from '../lastfm/lastfm-testing.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const now = () => String(Math.floor(Date.now() / 1000));

describeWithApp('Audioscrobbler 1.2', (app) => {
  let bob: ClientAccount;

  const handshakeWith = (params: Record<string, string>) =>
    jsonRequest<string>(`${app().scrobblerUrl}/?${new URLSearchParams({ hs: 'true', p: '1.2', c: 'tst', v: '1.0', ...params })}`, 'GET');

  /** Standard authentication: the API key is the password. */
  const handshake = (password = bob.key, t = now(), user = bob.handle) => handshakeWith({ u: user, t, a: md5(md5(password) + t) });

  const post = (path: string, body: string) =>
    jsonRequest<string>(`${app().scrobblerUrl}${path}`, 'POST', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  const sessionFrom = (result: HttpResult<string>) => result.body.split('\n')[1]!;

  const scrobbles = () =>
    app()
      .ctx.db.selectFrom('scrobbles')
      .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
      .select(['tracks.title', 'scrobbles.source'])
      .where('scrobbles.user_id', '=', bob.userId)
      .orderBy('scrobbles.listened_at')
      .execute();

  before(async () => {
    bob = await createClientAccount(app(), 'as-bob');
  });

  test('the handshake answers OK, a session id and the two submission URLs', async () => {
    const result = await handshake();
    assert.equal(result.status, 200);
    assert.match(result.headers.get('content-type')!, /^text\/plain/);
    const lines = result.body.split('\n');
    assert.equal(lines.length, 5);
    assert.equal(lines[0], 'OK');
    assert.match(lines[1]!, /^[0-9a-f]{32}$/);
    assert.equal(lines[2], `${app().ctx.config.scrobblerPublicUrl}/np_1.2`);
    assert.equal(lines[3], `${app().ctx.config.scrobblerPublicUrl}/protocol_1.2`);
    assert.equal(lines[4], '');
    const stored = await app().ctx.db.selectFrom('audioscrobbler_sessions').select('session_hash').where('user_id', '=', bob.userId).execute();
    assert.ok(stored.length > 0 && stored.every((row) => row.session_hash !== lines[1]), 'session ids are stored hashed');
  });

  test('the root without hs=true is still the informational page', async () => {
    const info = await jsonRequest<{ service: string }>(`${app().scrobblerUrl}/`, 'GET');
    assert.equal(info.status, 200);
    assert.equal(info.body.service, 'earshot scrobbler');
  });

  test('BADAUTH for a wrong key or unknown user, BADTIME for a far-off clock, FAILED for bad requests', async () => {
    assert.equal((await handshake('0'.repeat(32))).body, 'BADAUTH\n');
    assert.equal((await handshake(bob.key, now(), 'nobody-here')).body, 'BADAUTH\n');
    assert.equal((await handshake(bob.key, String(Number(now()) - 2 * 3600))).body, 'BADTIME\n');
    const missing = await handshakeWith({ u: bob.handle, t: now() });
    assert.equal(missing.status, 400);
    assert.equal(missing.body, 'FAILED a is required\n');
    const t = now();
    const oldProtocol = await handshakeWith({ p: '1.1', u: bob.handle, t, a: md5(md5(bob.key) + t) });
    assert.match(oldProtocol.body, /^FAILED protocol 1.1 is not supported/);
  });

  test('web-services authentication (1.2.1) with a Last.fm session key', async () => {
    const session = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: bob.handle, password: bob.password, api_key: bob.key, format: 'json' },
      { secret: bob.sharedSecret },
    );
    const sk: string = session.body.session.key;
    const t = now();
    const params = { p: '1.2.1', u: bob.handle, t, api_key: bob.key, sk };
    const ok = await handshakeWith({ ...params, a: md5(bob.sharedSecret + t) });
    assert.match(ok.body, /^OK\n[0-9a-f]{32}\n/);
    assert.equal((await handshakeWith({ ...params, a: md5(`wrong${t}`) })).body, 'BADAUTH\n');
    const alice = await createClientAccount(app(), 'as-alice');
    assert.equal((await handshakeWith({ ...params, u: alice.handle, a: md5(bob.sharedSecret + t) })).body, 'BADAUTH\n');
    assert.equal((await handshakeWith({ ...params, sk: 'f'.repeat(32), a: md5(bob.sharedSecret + t) })).body, 'BADAUTH\n');
  });

  test('now-playing sets the current track; BADSESSION for an unknown session; FAILED without a track', async () => {
    const sessionId = sessionFrom(await handshake());
    const ok = await post(
      '/np_1.2',
      new URLSearchParams({ s: sessionId, a: 'Air', t: 'Playground Love', b: 'The Virgin Suicides', l: '213', n: '', m: '' }).toString(),
    );
    assert.equal(ok.body, 'OK\n');
    const playing = await currentNowPlaying(app().ctx, bob.userId);
    assert.equal(playing?.submitted.t, 'Playground Love');
    assert.equal((await post('/np_1.2', `s=${'0'.repeat(32)}&a=A&t=T`)).body, 'BADSESSION\n');
    const failed = await post('/np_1.2', `s=${sessionId}&a=A`);
    assert.deepEqual([failed.status, failed.body], [400, 'FAILED t is required\n']);
  });

  test('submissions store listens, star loved tracks and leave out skips', async () => {
    const sessionId = sessionFrom(await handshake());
    const body = new URLSearchParams({
      s: sessionId,
      'a[0]': 'Portishead',
      't[0]': 'Roads',
      'i[0]': '1700000000',
      'o[0]': 'P',
      'r[0]': 'L',
      'l[0]': '305',
      'b[0]': 'Dummy',
      'n[0]': '5',
      'm[0]': '',
      'a[1]': 'Portishead',
      't[1]': 'Sour Times',
      'i[1]': '1700000400',
      'o[1]': 'L1b48a',
      'r[1]': 'S',
      'a[2]': 'Massive Attack',
      't[2]': 'Teardrop',
      'i[2]': '1700000800',
      'o[2]': 'R',
    });
    const result = await post('/protocol_1.2', body.toString());
    assert.equal(result.body, 'OK\n');
    assert.deepEqual(await scrobbles(), [
      { title: 'Roads', source: 'audioscrobbler' },
      { title: 'Teardrop', source: 'audioscrobbler' },
    ]);
    const stars = await app()
      .ctx.db.selectFrom('stars')
      .innerJoin('tracks', 'tracks.id', 'stars.subject_id')
      .select('tracks.title')
      .where('stars.user_id', '=', bob.userId)
      .execute();
    assert.deepEqual(stars, [{ title: 'Roads' }]);
  });

  test('a malformed submission stores nothing; sessions expire; internal failures are FAILED with 503', async () => {
    const sessionId = sessionFrom(await handshake());
    const before = (await scrobbles()).length;
    const malformed = await post('/protocol_1.2', `s=${sessionId}&a[0]=A&t[0]=T&i[0]=1700001000&o[0]=P&a[1]=B&t[1]=U&i[1]=1700001100`);
    assert.deepEqual([malformed.status, malformed.body], [400, 'FAILED o[1] is required\n']);
    assert.equal((await scrobbles()).length, before);
    assert.equal((await post('/protocol_1.2', `s=nope&a[0]=A&t[0]=T&i[0]=1700001000&o[0]=P`)).body, 'BADSESSION\n');

    await sql`alter table audioscrobbler_sessions rename to audioscrobbler_sessions_away`.execute(app().ctx.db);
    try {
      const broken = await post('/protocol_1.2', `s=${sessionId}`);
      assert.deepEqual([broken.status, broken.body], [503, 'FAILED temporary server error, try again later\n']);
    } finally {
      await sql`alter table audioscrobbler_sessions_away rename to audioscrobbler_sessions`.execute(app().ctx.db);
    }

    await app().ctx.db.updateTable('audioscrobbler_sessions').set({ expires_at: sql<Date>`now()` }).where('user_id', '=', bob.userId).execute();
    assert.equal((await post('/np_1.2', `s=${sessionId}&a=A&t=T`)).body, 'BADSESSION\n');
  });
});
