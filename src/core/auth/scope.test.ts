import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { describeWithApp, jsonRequest, postLargeBody } from '../../app/testing.ts';
import { createClientAccount, lastfmCall } from '../../adapters/lastfm/lastfm-testing.ts';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

describeWithApp('credential scopes', (app) => {
  test('an API key scrobbles and reads its owner’s data', async () => {
    const owner = await createClientAccount(app(), 'scope-reader');
    const play = { artist: 'Air', title: 'La femme d’argent', timestamp: '2025-01-01T10:00:00Z' };
    assert.equal((await app().procedure('app.svc.scrobble.createScrobble', play, owner.key)).status, 200);
    const following = await app().query('app.svc.feed.getFeed', { feed: 'earshot:feed:following' }, owner.key);
    assert.equal(following.status, 200);
  });

  test('an API key cannot manage access tokens or API keys: 403 InsufficientScope', async () => {
    const owner = await createClientAccount(app(), 'scope-keyonly');
    const attempts = [
      app().request('GET', '/access-tokens', { token: owner.key }),
      app().request('POST', '/access-tokens', { token: owner.key, body: { name: 'escalate' } }),
      app().request('DELETE', `/access-tokens/${NO_SUCH_ID}`, { token: owner.key }),
      app().query('app.svc.apikey.getApikeys', {}, owner.key),
      app().procedure('app.svc.apikey.createApikey', { name: 'another' }, owner.key),
      app().procedure('app.svc.apikey.updateApikey', { id: owner.apiKeyId, name: 'renamed' }, owner.key),
      app().procedure('app.svc.apikey.removeApikey', { id: owner.apiKeyId }, owner.key),
    ];
    for (const result of await Promise.all(attempts)) {
      assert.equal(result.status, 403);
      assert.equal(result.body.error, 'InsufficientScope');
      assert.match(result.body.message, /API key/);
    }
    const tokens = await app().ctx.db.selectFrom('access_tokens').select('id').execute();
    assert.equal(tokens.length, 0);
    const keys = await app().query('app.svc.apikey.getApikeys', {}, owner.token);
    assert.deepEqual(
      keys.body.apikeys.map((key: { name: string }) => key.name),
      ['scope-keyonly player'],
    );
  });

  test('a sign-in session and an access token manage credentials', async () => {
    const { token: session } = await app().signup('scope-manager');
    const { body: pat } = await app().request('POST', '/access-tokens', { token: session, body: { name: 'cli' } });
    assert.equal((await app().procedure('app.svc.apikey.createApikey', { name: 'via pat' }, pat.token)).status, 200);
    assert.equal((await app().request('POST', '/access-tokens', { token: pat.token, body: { name: 'child' } })).status, 201);
  });

  test('the OpenAPI document states which credentials each operation accepts', async () => {
    const { body } = await app().request('GET', '/openapi.json');
    const createApikey = body.paths['/app.svc.apikey.createApikey'].post;
    assert.deepEqual(createApikey['x-earshot-credentials'], ['session', 'access-token']);
    assert.match(createApikey.description, /API key is refused with 403 InsufficientScope/);
    assert.ok(createApikey.responses['403']);
    assert.ok(body.paths['/access-tokens'].post.responses['403']);
    const createScrobble = body.paths['/app.svc.scrobble.createScrobble'].post;
    assert.deepEqual(createScrobble['x-earshot-credentials'], ['session', 'access-token', 'api-key']);
    assert.equal(createScrobble.responses['403'], undefined);
  });
});

describeWithApp('credentials die with the access token that created them', (app) => {
  test('revoking an access token removes the access tokens and API keys it created, and their sessions', async () => {
    const { token: session, handle } = await app().signup('provenance');
    const { body: parent } = await app().request('POST', '/access-tokens', { token: session, body: { name: 'parent' } });
    const { body: child } = await app().request('POST', '/access-tokens', { token: parent.token, body: { name: 'child' } });
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'made by parent' }, parent.token);
    const { body: kept } = await app().procedure('app.svc.apikey.createApikey', { name: 'made by session' }, session);
    const password = 'correct horse battery';
    const mobile = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: handle, password, api_key: key.key, format: 'json' },
      { secret: key.sharedSecret },
    );
    const t = String(Math.floor(Date.now() / 1000));
    const handshake = await jsonRequest<string>(
      `${app().scrobblerUrl}/?${new URLSearchParams({ hs: 'true', p: '1.2', c: 'tst', v: '1', u: handle, t, a: md5(md5(key.key) + t) })}`,
      'GET',
    );
    assert.match(handshake.body, /^OK\n/);
    const sessionId = handshake.body.split('\n')[1]!;

    assert.equal((await app().request('DELETE', `/access-tokens/${parent.id}`, { token: session })).status, 204);

    assert.equal((await app().request('GET', '/access-tokens', { token: child.token })).status, 401);
    assert.deepEqual((await app().request('GET', '/access-tokens', { token: session })).body.tokens, []);
    const keys = await app().query('app.svc.apikey.getApikeys', {}, session);
    assert.deepEqual(
      keys.body.apikeys.map((k: { id: string }) => k.id),
      [kept.id],
    );
    const scrobble = await lastfmCall(
      app(),
      { method: 'track.scrobble', api_key: key.key, sk: mobile.body.session.key, artist: 'A', track: 'T', timestamp: t, format: 'json' },
      { secret: key.sharedSecret },
    );
    assert.deepEqual([scrobble.status, scrobble.body.error], [403, 10]);
    const submission = await jsonRequest<string>(`${app().scrobblerUrl}/np_1.2`, 'POST', {
      body: `s=${sessionId}&a=A&t=T`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(submission.body, 'BADSESSION\n');
    assert.equal((await app().ctx.db.selectFrom('lastfm_sessions').select('id').execute()).length, 0);
    assert.equal((await app().ctx.db.selectFrom('audioscrobbler_sessions').select('user_id').execute()).length, 0);
  });
});

describeWithApp('credentials are checked before the body', (app) => {
  test('a bad body without credentials is 401 AuthMissing, not 400', async () => {
    const result = await app().procedure('app.svc.apikey.createApikey', { name: 42 });
    assert.equal(result.status, 401);
    assert.equal(result.body.error, 'AuthMissing');
    const route = await app().request('POST', '/access-tokens', { body: '{"name": ' });
    assert.equal(route.status, 401);
    assert.equal((await app().procedure('app.svc.scrobble.createScrobble', {}, 'not-a-key')).body.error, 'InvalidToken');
  });

  test('a bad body with an API key on an account operation is 403, not 400', async () => {
    const owner = await createClientAccount(app(), 'early-scope');
    const result = await app().procedure('app.svc.apikey.createApikey', { name: 42 }, owner.key);
    assert.equal(result.status, 403);
    assert.equal(result.body.error, 'InsufficientScope');
  });

  test('an unauthenticated 10 MB body is refused with 401 before it has been sent', async () => {
    const result = await postLargeBody(`${app().apiUrl}/xrpc/app.svc.scrobble.importListens`, 10_000_000);
    assert.equal(result.status, 401);
    assert.equal(JSON.parse(result.body).error, 'AuthMissing');
    assert.equal(result.bodyComplete, false);
  });
});
