/**
 * Connecting the streaming service through the real HTTP server against its fake: the start of
 * the authorization (redirect and URL), every callback the server must refuse (forged, replayed,
 * expired, denied, without a code) and that a refusal stores nothing, tokens sealed at rest and
 * never answered, one refresh for many concurrent callers, a token refused even after a refresh,
 * and disconnecting.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { openOrNull } from '../auth/encryption.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { startFakeMusicstream, type FakeMusicstream } from './musicstream/fake.ts';
import { connectThroughConsent, useProvider } from './testing.ts';

const SCOPES = 'user-read-playback-state user-modify-playback-state user-read-currently-playing user-read-recently-played user-read-email';

describeWithApp('provider connect flow', (app) => {
  let fake: FakeMusicstream;
  /** Every grant the fake's token endpoint made, so a test can look for its tokens elsewhere. */
  const granted: { accessToken: string; refreshToken: string }[] = [];

  before(async () => {
    fake = await startFakeMusicstream({ account: 'listener' });
    const grant = fake.oauth.grant.bind(fake.oauth);
    fake.oauth.grant = (account) => {
      const tokens = grant(account);
      granted.push(tokens);
      return tokens;
    };
    useProvider(app(), 'musicstream', fake.config);
  });
  after(() => fake.close());

  let handles = 0;
  async function user(a: TestApp): Promise<{ userId: string; token: string }> {
    const account = await a.signup(`connect-user-${++handles}`);
    const { id } = await a.ctx.db.selectFrom('users').select('id').where('did', '=', account.did).executeTakeFirstOrThrow();
    return { userId: id, token: account.token };
  }

  const accountRow = (userId: string) =>
    app().ctx.db.selectFrom('provider_accounts').selectAll().where('user_id', '=', userId).where('provider', '=', 'musicstream').executeTakeFirst();

  /** The user's browser: the binding cookie the last start set in it, sent back to the callback. */
  let browserCookie = '';

  /** Starts an authorization as the web app does and lets the fake consent: the callback URL it sends the browser to. */
  async function consentedCallback(token: string): Promise<URL> {
    const start = await fetch(`${app().apiUrl}/providers/musicstream/connect`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const started = (await start.json()) as { url: string };
    assert.equal(start.status, 200, JSON.stringify(started));
    browserCookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const consent = await fetch(started.url, { redirect: 'manual' });
    assert.equal(consent.status, 302);
    return new URL(consent.headers.get('location')!);
  }

  const callBack = async (url: URL | string, cookie = browserCookie) => {
    const response = await fetch(url, { headers: { cookie } });
    return { status: response.status, body: (await response.json()) as any };
  };

  function assertRefused(result: { status: number; body: any }, message: RegExp): void {
    assert.equal(result.status, 400, JSON.stringify(result.body));
    assert.equal(result.body.error, 'InvalidRequest');
    assert.match(result.body.message, message);
  }

  test('GET connect: 401 without credentials; 302 to the consent page with state, PKCE S256, redirect_uri, client id and scopes', async () => {
    const anonymous = await fetch(`${app().apiUrl}/providers/musicstream/connect`, { redirect: 'manual' });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('location'), null);

    const { userId, token } = await user(app());
    const start = await fetch(`${app().apiUrl}/providers/musicstream/connect`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    assert.equal(start.status, 302);
    const location = new URL(start.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, `${fake.url}/oauth/authorize`);
    const params = Object.fromEntries(location.searchParams);
    assert.deepEqual(Object.keys(params).sort(), ['client_id', 'code_challenge', 'code_challenge_method', 'redirect_uri', 'response_type', 'scope', 'state']);
    assert.equal(params.client_id, fake.oauth.clientId);
    assert.equal(params.response_type, 'code');
    assert.equal(params.redirect_uri, `${app().apiUrl}/providers/musicstream/callback`);
    assert.equal(params.scope, SCOPES);
    assert.equal(params.code_challenge_method, 'S256');
    assert.match(params.code_challenge!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(params.state!, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    // The state names a pending authorization of this user, holding the verifier the challenge was made from.
    const nonce = params.state!.split('.')[0]!;
    const pending = await app().ctx.db.selectFrom('oauth_states').selectAll().where('nonce', '=', nonce).executeTakeFirstOrThrow();
    assert.deepEqual([pending.user_id, pending.provider, pending.folder], [userId, 'musicstream', null]);
    const verifier = openOrNull(app().ctx.keys.encryption, pending.code_verifier_sealed!, `oauth_states:${nonce}`);
    assert.ok(verifier !== null && verifier.length >= 43);
    assert.equal(createHash('sha256').update(verifier).digest('base64url'), params.code_challenge);
  });

  test('POST connect answers {url, expiresAt}; a folder for the streaming service and an unknown provider are 400', async () => {
    const { token } = await user(app());
    const anonymous = await app().request('POST', '/providers/musicstream/connect');
    assert.equal(anonymous.status, 401);

    const before = Date.now();
    const started = await app().request('POST', '/providers/musicstream/connect', { token });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.deepEqual(Object.keys(started.body).sort(), ['expiresAt', 'url']);
    const url = new URL(started.body.url);
    assert.equal(`${url.origin}${url.pathname}`, `${fake.url}/oauth/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    const expiresIn = Date.parse(started.body.expiresAt) - before;
    assert.ok(expiresIn > 9 * 60_000 && expiresIn <= 10 * 60_000 + 1000, `expires in ${expiresIn} ms`);

    for (const method of ['GET', 'POST']) {
      const folder = await app().request(method, '/providers/musicstream/connect?folder=/Music', { token });
      assert.equal(folder.status, 400);
      assert.equal(folder.body.error, 'InvalidRequest');
      assert.match(folder.body.message, /musicstream has no folders to choose/);
    }
    const unknown = await app().request('POST', '/providers/nowhere/connect', { token });
    assert.equal(unknown.status, 400);
  });

  test('a browser-started authorization is finished only by the browser holding its cookie', async () => {
    const { userId, token } = await user(app());
    const startInBrowser = async () => {
      const start = await fetch(`${app().apiUrl}/providers/musicstream/connect`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
      const cookie = start.headers.getSetCookie()[0]!;
      assert.match(cookie, /^earshot_connect_musicstream=[\w-]+; Path=\/providers\/musicstream\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
      const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
      return { cookie: cookie.split(';')[0]!, callback: consent.headers.get('location')! };
    };
    // A consent link handed to someone else: their browser has no cookie, or another authorization's.
    const handedOver = await startInBrowser();
    assertRefused(await callBack(handedOver.callback, ''), /started in another browser, or at another address than/);
    const mine = await startInBrowser();
    const other = await startInBrowser();
    const crossed = await fetch(mine.callback, { headers: { cookie: other.cookie } });
    assertRefused({ status: crossed.status, body: await crossed.json() }, /started in another browser/);
    assert.equal(await accountRow(userId), undefined, 'nothing connected');
    const own = await fetch(other.callback, { headers: { cookie: other.cookie } });
    assert.equal(own.status, 200);
    assert.match(own.headers.getSetCookie()[0]!, /^earshot_connect_musicstream=; .*Max-Age=0/, 'the cookie is cleared');
    assert.equal((await accountRow(userId))?.status, 'connected');
  });

  test("POST connect (the web app's) binds the authorization to the browser its answer lands in: a consent link handed to someone else connects nothing", async () => {
    const { userId, token } = await user(app());
    const handedOver = await consentedCallback(token);
    assert.match(browserCookie, /^earshot_connect_musicstream=[\w-]+$/);
    // Another person opens the consent URL: their browser has no cookie, or one of its own.
    assertRefused(await callBack(handedOver, ''), /started in another browser, or at another address than/);
    assertRefused(await callBack(await consentedCallback(token), 'earshot_connect_musicstream=theirs'), /started in another browser/);
    assert.equal(await accountRow(userId), undefined, 'nothing connected');
    const own = await callBack(await consentedCallback(token));
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.message, 'Connected musicstream as listener. You can close this page.');
    assert.equal((await accountRow(userId))?.status, 'connected');
  });

  test('the binding cookie is Secure when PUBLIC_URL is https, from both starts; HttpOnly, SameSite=Lax and the callback path either way', async () => {
    const { token } = await user(app());
    const starts = () => [
      fetch(`${app().apiUrl}/providers/musicstream/connect`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' }),
      fetch(`${app().apiUrl}/providers/musicstream/connect`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    ];
    const attributes = /^earshot_connect_musicstream=[\w-]+; Path=\/providers\/musicstream\/callback; Max-Age=600; HttpOnly; SameSite=Lax/;
    for (const start of await Promise.all(starts())) {
      assert.match(start.headers.getSetCookie()[0]!, new RegExp(`${attributes.source}$`), 'plain http: no Secure, which the browser would drop');
    }
    const publicUrl = app().ctx.config.publicUrl;
    app().ctx.config.publicUrl = 'https://earshot.example';
    try {
      for (const start of await Promise.all(starts())) assert.match(start.headers.getSetCookie()[0]!, new RegExp(`${attributes.source}; Secure$`));
    } finally {
      app().ctx.config.publicUrl = publicUrl;
    }
  });

  test('finish=client (the command line): the callback connects nothing, the starting account finishes at /complete; anyone else cannot', async () => {
    const { userId, token } = await user(app());
    const other = await user(app());
    const start = await fetch(`${app().apiUrl}/providers/musicstream/connect?finish=client`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(start.status, 200);
    assert.deepEqual(start.headers.getSetCookie(), [], 'no cookie: the consent page may be opened in any browser');
    const consent = await fetch(((await start.json()) as { url: string }).url, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const answer = { state: callback.searchParams.get('state'), code: callback.searchParams.get('code') };

    // Whoever's browser arrives is told to hand the address back; nothing is used up or connected.
    const arrived = await callBack(callback, '');
    assert.equal(arrived.status, 200, JSON.stringify(arrived.body));
    assert.match(
      arrived.body.message,
      /^Nothing is connected yet: if you ran the command .* paste this page's address into it to finish. Give the address to no one else/,
    );
    assert.equal(await accountRow(userId), undefined);
    const complete = (body: unknown, as?: string) => app().request('POST', '/providers/musicstream/complete', { token: as, body });
    assert.equal((await complete(answer)).status, 401);
    assertRefused(await complete(answer, other.token), /already used or has been replaced/);
    assert.equal(await accountRow(other.userId), undefined);
    assert.equal(await accountRow(userId), undefined);

    const finished = await complete(answer, token);
    assert.equal(finished.status, 200, JSON.stringify(finished.body));
    assert.equal(finished.body.message, 'Connected musicstream as listener. You can close this page.');
    assert.equal((await accountRow(userId))?.status, 'connected');
    assertRefused(await complete(answer, token), /already used/);
    // A browser-bound authorization is not finished by a client, even its own account's.
    const inBrowser = await consentedCallback(token);
    assertRefused(await complete({ state: inBrowser.searchParams.get('state'), code: inBrowser.searchParams.get('code') }, token), /started in a browser/);
  });

  test('connect when the streaming service is not configured is 400 ProviderNotConfigured, in words', async () => {
    const { token } = await user(app());
    useProvider(app(), 'musicstream', undefined);
    try {
      for (const method of ['GET', 'POST']) {
        const result = await app().request(method, '/providers/musicstream/connect', { token });
        assert.deepEqual([result.status, result.body.error], [400, 'ProviderNotConfigured']);
        assert.match(result.body.message, /musicstream is not configured on this server \(set MUSICSTREAM_CLIENT_ID/);
      }
      const available = await app().query('app.svc.provider.getConnections', {}, token);
      assert.ok(!available.body.available.includes('musicstream'));
    } finally {
      useProvider(app(), 'musicstream', fake.config);
    }
    const configured = await app().request('POST', '/providers/musicstream/connect', { token });
    assert.equal(configured.status, 200);
  });

  test('a forged state is refused before anything is used: changed signature, another nonce, signed for another provider, none', async () => {
    const { userId, token } = await user(app());
    const callback = await consentedCallback(token);
    const codeExchanges = fake.oauth.tokenCalls.authorization_code;
    const state = callback.searchParams.get('state')!;
    const [nonce, signature] = state.split('.') as [string, string];
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const otherProvider = createHmac('sha256', app().ctx.keys.oauthState).update(`filehostA:${nonce}`).digest('base64url');
    const unknownNonce = 'x'.repeat(32);
    const forged = [
      `${nonce}.${flip(signature)}`,
      `${flip(nonce)}.${signature}`,
      `${unknownNonce}.${signature}`,
      `${nonce}.${otherProvider}`,
      `${state}.extra`,
      nonce,
      '',
    ];
    for (const value of forged) {
      const url = new URL(callback);
      url.searchParams.set('state', value);
      assertRefused(await callBack(url), /state is missing or was not issued by this server; start again at \/providers\/musicstream\/connect/);
    }
    const none = new URL(callback);
    none.searchParams.delete('state');
    assertRefused(await callBack(none), /state is missing or was not issued by this server/);
    // A nonce signed with the server's key but never issued is no pending authorization.
    const signedUnknown = `${unknownNonce}.${createHmac('sha256', app().ctx.keys.oauthState).update(`musicstream:${unknownNonce}`).digest('base64url')}`;
    const unissued = new URL(callback);
    unissued.searchParams.set('state', signedUnknown);
    assertRefused(await callBack(unissued), /already used or has been replaced; start again/);

    assert.equal(await accountRow(userId), undefined);
    assert.equal(fake.oauth.tokenCalls.authorization_code, codeExchanges, 'no refused callback reached the token endpoint');
    // The forgeries used nothing up: the genuine callback still connects.
    const genuine = await callBack(callback);
    assert.equal(genuine.status, 200, JSON.stringify(genuine.body));
    assert.equal((await accountRow(userId))?.status, 'connected');
  });

  test('a callback used twice: the second is refused as already used', async () => {
    const { userId, token } = await user(app());
    const callback = await consentedCallback(token);
    const first = await callBack(callback);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, {
      provider: 'musicstream',
      account: { id: 'listener', name: 'listener' },
      folder: null,
      message: 'Connected musicstream as listener. You can close this page.',
    });
    const row = await accountRow(userId);
    const codeExchanges = fake.oauth.tokenCalls.authorization_code;
    assertRefused(await callBack(callback), /this authorization was already used or has been replaced; start again/);
    assert.equal(fake.oauth.tokenCalls.authorization_code, codeExchanges, 'the replayed code was not exchanged');
    assert.deepEqual(await accountRow(userId), row, 'the connection is untouched');
  });

  test('an expired authorization, a denied consent and a callback without a code are refused in words, storing nothing', async () => {
    const { userId, token } = await user(app());

    const expired = await consentedCallback(token);
    const nonce = expired.searchParams.get('state')!.split('.')[0]!;
    await app()
      .ctx.db.updateTable('oauth_states')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('nonce', '=', nonce)
      .execute();
    assertRefused(await callBack(expired), /this authorization expired; start again/);
    // Refused once, it is used up: calling back again is no second chance.
    assertRefused(await callBack(expired), /already used/);

    fake.oauth.denyNext = true;
    const denied = await connectThroughConsent(app(), token, 'musicstream');
    assertRefused(denied, /^musicstream did not grant access \(access_denied\)$/);

    const withoutCode = await consentedCallback(token);
    withoutCode.searchParams.delete('code');
    assertRefused(await callBack(withoutCode), /^musicstream sent no authorization code$/);

    const badCode = await consentedCallback(token);
    badCode.searchParams.set('code', 'code-never-issued');
    assertRefused(await callBack(badCode), /^musicstream refused the authorization code; start again$/);

    assert.equal(await accountRow(userId), undefined);
    assert.deepEqual((await app().query('app.svc.provider.getConnections', {}, token)).body.connections, []);
    assert.equal(
      (await app().ctx.db.selectFrom('oauth_states').select('nonce').where('user_id', '=', userId).execute()).length,
      0,
      'every refused authorization was used up',
    );
  });

  test('tokens are sealed at rest, and getConnections and the callback answer none of them', async () => {
    const { userId, token } = await user(app());
    const before = granted.length;
    const connected = await connectThroughConsent(app(), token, 'musicstream');
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.equal(granted.length, before + 1);
    const { accessToken, refreshToken } = granted.at(-1)!;

    const row = (await accountRow(userId))!;
    assert.ok(row.access_token_encrypted && row.refresh_token_encrypted);
    const secrets = [accessToken, refreshToken, Buffer.from(accessToken).toString('base64url'), Buffer.from(refreshToken).toString('base64url')];
    for (const column of [row.access_token_encrypted, row.refresh_token_encrypted]) {
      for (const secret of secrets) assert.ok(!column.includes(secret), 'a token is stored in the clear');
    }
    // Sealed for their row and column: the access token does not open as the refresh token.
    assert.equal(openOrNull(app().ctx.keys.encryption, row.access_token_encrypted, `provider_accounts:${userId}:musicstream:access`), accessToken);
    assert.equal(openOrNull(app().ctx.keys.encryption, row.access_token_encrypted, `provider_accounts:${userId}:musicstream:refresh`), null);

    const view = await app().query('app.svc.provider.getConnections', {}, token);
    assert.equal(view.status, 200);
    assert.ok(view.body.available.includes('musicstream'));
    assert.equal(view.body.connections.length, 1);
    const [connection] = view.body.connections;
    assert.equal(connection.provider, 'musicstream');
    assert.equal(connection.status, 'connected');
    assert.equal(connection.statusReason, null);
    assert.equal(connection.accountId, 'listener');
    assert.equal(connection.accountName, 'listener');
    assert.equal(connection.folder, null);
    assert.ok(!Number.isNaN(Date.parse(connection.connectedAt)));
    for (const text of [JSON.stringify(view.body), JSON.stringify(connected.body)]) {
      for (const secret of [accessToken, refreshToken, row.access_token_encrypted, row.refresh_token_encrypted])
        assert.ok(!text.includes(secret), 'a token is answered');
      assert.doesNotMatch(text, /access-|refresh-|token/i);
    }
  });

  test('a valid token is reused; after the provider expires it, five concurrent calls share one refresh', async () => {
    const { userId, token } = await user(app());
    assert.equal((await connectThroughConsent(app(), token, 'musicstream')).status, 200);
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura' });

    const refreshes = fake.oauth.tokenCalls.refresh_token;
    const stored = (await accountRow(userId))!;
    for (const command of ['pause', 'play', 'pause']) {
      const result = await app().procedure(`app.svc.musicstream.${command}`, undefined, token);
      assert.deepEqual([result.status, result.body], [200, { success: true }]);
    }
    assert.equal((await app().query('app.svc.musicstream.getCurrentlyPlaying', {}, token)).status, 200);
    assert.equal(fake.oauth.tokenCalls.refresh_token, refreshes, 'a valid token is not refreshed');
    assert.equal((await accountRow(userId))!.access_token_encrypted, stored.access_token_encrypted);

    // The provider stops accepting the token before the stored expiry: only its 401 says so.
    fake.oauth.expireAccessTokens();
    assert.ok(stored.expires_at!.getTime() > Date.now() + 10 * 60_000);
    // A slow token endpoint keeps the refresh in flight while every caller meets the 401.
    const handle = fake.oauth.handle;
    fake.oauth.handle = async (request, response, url) => {
      if (url.pathname === '/oauth/token') await setTimeout(150);
      return handle.call(fake.oauth, request, response, url);
    };
    let results;
    try {
      results = await Promise.all(Array.from({ length: 5 }, () => app().query('app.svc.musicstream.getCurrentlyPlaying', {}, token)));
    } finally {
      fake.oauth.handle = handle;
    }
    for (const result of results) {
      assert.equal(result.status, 200, JSON.stringify(result.body));
      assert.equal(result.body.track.title, 'Desfado');
    }
    assert.equal(fake.oauth.tokenCalls.refresh_token, refreshes + 1, 'one refresh for all five callers');
    const refreshed = (await accountRow(userId))!;
    assert.notEqual(refreshed.access_token_encrypted, stored.access_token_encrypted);
    assert.equal(refreshed.status, 'connected');
    // The new token is reused in turn.
    assert.equal((await app().procedure('app.svc.musicstream.next', undefined, token)).status, 200);
    assert.equal(fake.oauth.tokenCalls.refresh_token, refreshes + 1);
  });

  test('a token refused even after a refresh is 409 ConnectionBroken in words, and the connection shows broken', async () => {
    const { userId, token } = await user(app());
    assert.equal((await connectThroughConsent(app(), token, 'musicstream')).status, 200);
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura' });
    const refreshes = fake.oauth.tokenCalls.refresh_token;
    fake.server.failNext({ status: 401, body: { error: { status: 401, message: 'The access token expired' } } }, '/me/player', 2);

    const result = await app().query('app.svc.musicstream.getCurrentlyPlaying', {}, token);
    assert.equal(result.status, 409, JSON.stringify(result.body));
    assert.equal(result.body.error, 'ConnectionBroken');
    assert.equal(
      result.body.message,
      'the musicstream connection is broken (the provider refused a freshly refreshed token); reconnect at /providers/musicstream/connect',
    );
    assert.equal(fake.oauth.tokenCalls.refresh_token, refreshes + 1, 'one refresh, then no more tries');

    const row = (await accountRow(userId))!;
    assert.deepEqual([row.status, row.status_reason], ['broken', 'the provider refused a freshly refreshed token']);
    const [connection] = (await app().query('app.svc.provider.getConnections', {}, token)).body.connections;
    assert.equal(connection.status, 'broken');
    assert.equal(connection.statusReason, 'the provider refused a freshly refreshed token; reconnect at /providers/musicstream/connect');
    // Broken stays broken without asking the provider, until the user reconnects.
    const requests = fake.server.requests.length;
    assert.equal((await app().procedure('app.svc.musicstream.pause', undefined, token)).body.error, 'ConnectionBroken');
    assert.equal(fake.server.requests.length, requests);
    assert.equal((await connectThroughConsent(app(), token, 'musicstream')).status, 200);
    assert.equal((await accountRow(userId))!.status, 'connected');
    assert.equal((await app().procedure('app.svc.musicstream.pause', undefined, token)).status, 200);
  });

  test('disconnect removes the connection; again is 404 NotConnected; a name that is no provider is 400', async () => {
    const { userId, token } = await user(app());
    assert.equal((await connectThroughConsent(app(), token, 'musicstream')).status, 200);
    // An authorization begun before disconnecting cannot reconnect afterwards.
    const pending = await consentedCallback(token);

    const ended = await app().procedure('app.svc.provider.disconnect', { provider: 'musicstream' }, token);
    assert.deepEqual([ended.status, ended.body], [200, { success: true }]);
    assert.equal(await accountRow(userId), undefined);
    assert.deepEqual((await app().query('app.svc.provider.getConnections', {}, token)).body.connections, []);
    const call = await app().procedure('app.svc.musicstream.play', undefined, token);
    assert.deepEqual([call.status, call.body.error], [404, 'NotConnected']);
    assertRefused(await callBack(pending), /already used or has been replaced/);
    assert.equal(await accountRow(userId), undefined);

    const again = await app().procedure('app.svc.provider.disconnect', { provider: 'musicstream' }, token);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, 'NotConnected');
    assert.match(again.body.message, /no musicstream account is connected/);

    for (const input of [{ provider: 'spotify' }, { provider: '' }, {}]) {
      const bad = await app().procedure('app.svc.provider.disconnect', input, token);
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.error, 'InvalidRequest');
    }
    const anonymous = await app().procedure('app.svc.provider.disconnect', { provider: 'musicstream' });
    assert.equal(anonymous.status, 401);
  });
});
