import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { describeWithApp, type TestApp } from '../../app/testing.ts';

const CHECK = 'app.svc.apikey.getApikeys';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

async function signIn(app: TestApp, handle: string, userAgent: string): Promise<string> {
  const result = await app.request('POST', '/auth/login', {
    body: { identifier: handle, password: 'correct horse battery' },
    headers: { 'user-agent': userAgent },
  });
  assert.equal(result.status, 200);
  return result.body.token;
}

const works = async (app: TestApp, token: string) => (await app.query(CHECK, {}, token)).status === 200;

describeWithApp('sign-in sessions', (app) => {
  test('logout ends that session at once; the user’s other sessions stay', async () => {
    await app().signup('sam');
    const laptop = await signIn(app(), 'sam', 'laptop browser');
    const phone = await signIn(app(), 'sam', 'phone app');
    const out = await app().request('POST', '/auth/logout', { token: laptop });
    assert.equal(out.status, 204);
    const after = await app().query(CHECK, {}, laptop);
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'InvalidToken');
    assert.match(after.body.message, /session has ended.*sign in again/);
    assert.equal(await works(app(), phone), true);
    assert.equal((await app().request('POST', '/auth/logout', { token: laptop })).status, 401, 'logging out twice');
  });

  test('the list shows live sessions newest first, which one is current, and the client that signed in', async () => {
    const { token: first } = await app().signup('lena');
    const second = await signIn(app(), 'lena', 'earshot-cli/1.0');
    const listed = await app().request('GET', '/auth/sessions', { token: second });
    assert.equal(listed.status, 200);
    const sessions = listed.body.sessions;
    assert.equal(sessions.length, 2);
    assert.deepEqual(
      sessions.map((s: any) => [s.userAgent, s.current]),
      [
        ['earshot-cli/1.0', true],
        ['node', false],
      ],
    );
    for (const session of sessions) {
      assert.match(session.id, /^[0-9a-f-]{36}$/);
      for (const field of ['createdAt', 'lastUsedAt', 'expiresAt']) assert.match(session[field], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const days = (Date.parse(session.expiresAt) - Date.parse(session.createdAt)) / 86_400_000;
      assert.ok(days > 29.9 && days <= 30, String(days));
    }
    const fromFirst = await app().request('GET', '/auth/sessions', { token: first });
    assert.deepEqual(
      fromFirst.body.sessions.map((s: any) => s.current),
      [false, true],
    );
  });

  test('DELETE /auth/sessions/:id ends another device’s session; another user’s is 404, a bad id 400', async () => {
    const { token: mine } = await app().signup('omar');
    const other = await signIn(app(), 'omar', 'old tablet');
    const { token: stranger } = await app().signup('pia');
    const otherId = (await app().request('GET', '/auth/sessions', { token: mine })).body.sessions.find((s: any) => !s.current).id;

    const foreign = await app().request('DELETE', `/auth/sessions/${otherId}`, { token: stranger });
    assert.deepEqual([foreign.status, foreign.body.error], [404, 'NotFound']);
    assert.equal(await works(app(), other), true);
    assert.equal((await app().request('DELETE', '/auth/sessions/not-a-uuid', { token: mine })).status, 400);
    assert.equal((await app().request('DELETE', `/auth/sessions/${NO_SUCH_ID}`, { token: mine })).status, 404);

    assert.equal((await app().request('DELETE', `/auth/sessions/${otherId}`, { token: mine })).status, 204);
    assert.equal(await works(app(), other), false);
    assert.equal(await works(app(), mine), true);
    assert.equal((await app().request('GET', '/auth/sessions', { token: mine })).body.sessions.length, 1);
  });

  test('logout needs a sign-in token: an access token is told how it is revoked, an API key is refused', async () => {
    const { token } = await app().signup('quinn');
    const { body: pat } = await app().request('POST', '/access-tokens', { token, body: { name: 'cli' } });
    const withPat = await app().request('POST', '/auth/logout', { token: pat.token });
    assert.equal(withPat.status, 400);
    assert.match(withPat.body.message, /DELETE \/access-tokens/);
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'player' }, token);
    assert.equal((await app().request('POST', '/auth/logout', { token: key.key })).status, 403);
    assert.equal((await app().request('POST', '/auth/logout')).status, 401);
    assert.equal((await app().request('GET', '/auth/sessions', { token: pat.token })).body.sessions[0].current, false);
    assert.equal(await works(app(), token), true);
  });

  test('a sign-in token from before sessions were stored (no session id) is refused, asking to sign in again', async () => {
    const { did } = await app().signup('rex');
    const legacy = await new SignJWT({ kind: 'session' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('earshot')
      .setSubject(did)
      .setIssuedAt()
      .setExpirationTime('1d')
      .sign(app().ctx.keys.jwt);
    const result = await app().query(CHECK, {}, legacy);
    assert.equal(result.status, 401);
    assert.deepEqual(result.body, { error: 'InvalidToken', message: 'This sign-in token is from before sessions could be ended; sign in again' });
  });

  test('signing in clears the user’s expired session rows', async () => {
    const { token } = await app().signup('stan');
    const stan = await app().ctx.db.selectFrom('users').select('id').where('handle', '=', 'stan').executeTakeFirstOrThrow();
    await app()
      .ctx.db.updateTable('sign_in_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', stan.id)
      .execute();
    assert.equal((await app().query(CHECK, {}, token)).status, 401);
    await signIn(app(), 'stan', 'again');
    const rows = await app().ctx.db.selectFrom('sign_in_sessions').select('user_agent').where('user_id', '=', stan.id).execute();
    assert.deepEqual(rows, [{ user_agent: 'again' }]);
  });
});
