import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

describeWithApp('scrobbler sessions a user granted', (app) => {
  /** The desktop flow: `listener` approves a token for `developer`'s API key; returns the session key. */
  async function grantDesktopSession(developer: ClientAccount, listener: ClientAccount): Promise<string> {
    const signed = (params: Record<string, string>) =>
      lastfmCall(app(), { api_key: developer.key, format: 'json', ...params }, { secret: developer.sharedSecret });
    const { body } = await signed({ method: 'auth.getToken' });
    const approval = await jsonRequest<string>(`${app().scrobblerUrl}/api/auth/`, 'POST', {
      body: new URLSearchParams({ api_key: developer.key, token: body.token, identifier: listener.handle, password: listener.password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(approval.status, 200);
    return (await signed({ method: 'auth.getSession', token: body.token })).body.session.key;
  }

  async function audioscrobblerSession(listener: ClientAccount): Promise<string> {
    const t = String(Math.floor(Date.now() / 1000));
    const params = new URLSearchParams({ hs: 'true', p: '1.2', c: 'tst', v: '1', u: listener.handle, t, a: md5(md5(listener.key) + t) });
    const result = await jsonRequest<string>(`${app().scrobblerUrl}/?${params}`, 'GET');
    return result.body.split('\n')[1]!;
  }

  const nowPlaying = (developer: ClientAccount, sk: string) =>
    lastfmCall(
      app(),
      { method: 'track.updateNowPlaying', artist: 'A', track: 'T', api_key: developer.key, sk, format: 'json' },
      { secret: developer.sharedSecret },
    );

  const audioscrobblerNowPlaying = (sessionId: string) =>
    jsonRequest<string>(`${app().scrobblerUrl}/np_1.2`, 'POST', {
      body: `s=${sessionId}&a=A&t=T`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  test('getScrobblerSessions lists sessions granted to anyone’s API key, without secrets', async () => {
    const developer = await createClientAccount(app(), 'sess-dev');
    const listener = await createClientAccount(app(), 'sess-listener');
    const sk = await grantDesktopSession(developer, listener);
    const sessionId = await audioscrobblerSession(listener);
    assert.equal((await nowPlaying(developer, sk)).status, 200);

    const listed = await app().query('app.svc.session.getScrobblerSessions', {}, listener.token);
    assert.equal(listed.status, 200);
    const byKind = Object.fromEntries(listed.body.sessions.map((session: { kind: string }) => [session.kind, session]));
    assert.deepEqual(Object.keys(byKind).sort(), ['audioscrobbler', 'lastfm']);
    assert.equal(byKind.lastfm.application, 'sess-dev player');
    assert.equal(byKind.lastfm.applicationOwner, 'sess-dev');
    assert.match(byKind.lastfm.lastUsedAt, /Z$/);
    assert.equal(byKind.lastfm.expiresAt, null);
    assert.equal(byKind.audioscrobbler.application, 'sess-listener player');
    assert.match(byKind.audioscrobbler.expiresAt, /Z$/);
    assert.deepEqual(Object.keys(byKind.lastfm).sort(), ['application', 'applicationOwner', 'createdAt', 'expiresAt', 'id', 'kind', 'lastUsedAt']);
    const text = JSON.stringify(listed.body);
    for (const secret of [sk, sessionId, listener.key, developer.key]) assert.ok(!text.includes(secret));

    const developerView = await app().query('app.svc.session.getScrobblerSessions', {}, developer.token);
    assert.deepEqual(developerView.body.sessions, []);
  });

  test('revokeScrobblerSession ends a session at once; someone else’s or an unknown one is 404', async () => {
    const developer = await createClientAccount(app(), 'revoke-dev');
    const listener = await createClientAccount(app(), 'revoke-listener');
    const sk = await grantDesktopSession(developer, listener);
    const sessionId = await audioscrobblerSession(listener);
    const { body } = await app().query('app.svc.session.getScrobblerSessions', {}, listener.token);
    const ids = Object.fromEntries(body.sessions.map((session: { kind: string; id: string }) => [session.kind, session.id]));

    for (const [id, token] of [
      [ids.lastfm, developer.token],
      ['00000000-0000-4000-8000-000000000000', listener.token],
    ]) {
      const refused = await app().procedure('app.svc.session.revokeScrobblerSession', { id }, token);
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error, 'NotFound');
    }
    assert.equal((await nowPlaying(developer, sk)).status, 200);

    for (const id of [ids.lastfm, ids.audioscrobbler]) {
      const revoked = await app().procedure('app.svc.session.revokeScrobblerSession', { id }, listener.token);
      assert.deepEqual([revoked.status, revoked.body], [200, {}]);
    }
    const refused = await nowPlaying(developer, sk);
    assert.deepEqual([refused.status, refused.body.error], [403, 9]);
    assert.equal((await audioscrobblerNowPlaying(sessionId)).body, 'BADSESSION\n');
    assert.deepEqual((await app().query('app.svc.session.getScrobblerSessions', {}, listener.token)).body.sessions, []);
  });

  test('sessions are managed with an account credential, not an API key', async () => {
    const listener = await createClientAccount(app(), 'scope-listener');
    const listed = await app().query('app.svc.session.getScrobblerSessions', {}, listener.key);
    assert.deepEqual([listed.status, listed.body.error], [403, 'InsufficientScope']);
    const revoked = await app().procedure('app.svc.session.revokeScrobblerSession', { id: 'not-a-uuid' }, listener.key);
    assert.equal(revoked.status, 403);
    const malformed = await app().procedure('app.svc.session.revokeScrobblerSession', { id: 'not-a-uuid' }, listener.token);
    assert.deepEqual([malformed.status, malformed.body.error], [400, 'InvalidRequest']);
  });
});
