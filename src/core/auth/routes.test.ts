import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { hashPassword, needsRehash } from './passwords.ts';

describeWithApp('sign-up and sign-in', (app) => {
  test('sign-up creates a user with a did:plc DID and returns a working JWT', async () => {
    const result = await app().request('POST', '/auth/signup', { body: { handle: 'Alice', password: 'correct horse battery' } });
    assert.equal(result.status, 201);
    assert.equal(result.body.handle, 'alice');
    assert.match(result.body.did, /^did:plc:[a-z2-7]{24}$/);
    assert.match(result.body.expiresAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const keys = await app().query('app.svc.apikey.getApikeys', {}, result.body.token);
    assert.equal(keys.status, 200);
  });

  test('a taken handle is refused with 409 HandleTaken', async () => {
    await app().signup('bob');
    const again = await app().request('POST', '/auth/signup', { body: { handle: 'BOB', password: 'another password' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'HandleTaken');
  });

  test('malformed handles and short passwords are 400 InvalidRequest', async () => {
    for (const body of [
      { handle: 'no spaces allowed', password: 'long enough pw' },
      { handle: '-leading', password: 'long enough pw' },
      { handle: 'carol', password: 'short' },
      { handle: 'carol' },
    ]) {
      const result = await app().request('POST', '/auth/signup', { body });
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.equal(result.body.error, 'InvalidRequest');
      assert.ok(result.body.message);
    }
  });

  test('login by handle or DID returns a JWT; a wrong password is 401 AuthenticationFailed', async () => {
    const user = await app().signup('dave', 'dave password 1');
    for (const identifier of ['dave', '@Dave', user.did]) {
      const ok = await app().request('POST', '/auth/login', { body: { identifier, password: 'dave password 1' } });
      assert.equal(ok.status, 200, identifier);
      assert.equal(ok.body.did, user.did);
      assert.equal(ok.body.token.split('.').length, 3);
    }
    for (const body of [
      { identifier: 'dave', password: 'wrong password' },
      { identifier: 'nobody-here', password: 'dave password 1' },
      { identifier: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', password: 'dave password 1' },
    ]) {
      const bad = await app().request('POST', '/auth/login', { body });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.body, { error: 'AuthenticationFailed', message: 'Invalid handle or password' });
    }
  });

  test('a password hashed at an older scrypt cost is rehashed at the current one on the next sign-in', async () => {
    const user = await app().signup('erin', 'erin password 1');
    const storedHash = () => app().ctx.db.selectFrom('users').select('password_hash').where('did', '=', user.did).executeTakeFirstOrThrow();
    const old = await hashPassword('erin password 1', { N: 1024, r: 8, p: 1 });
    await app().ctx.db.updateTable('users').set({ password_hash: old }).where('did', '=', user.did).execute();
    const wrong = await app().request('POST', '/auth/login', { body: { identifier: 'erin', password: 'not erin password' } });
    assert.equal(wrong.status, 401);
    assert.equal((await storedHash()).password_hash, old, 'a failed sign-in changes nothing');
    const ok = await app().request('POST', '/auth/login', { body: { identifier: 'erin', password: 'erin password 1' } });
    assert.equal(ok.status, 200);
    const rehashed = (await storedHash()).password_hash!;
    assert.equal(needsRehash(rehashed), false);
    assert.notEqual(rehashed, old);
    const again = await app().request('POST', '/auth/login', { body: { identifier: 'erin', password: 'erin password 1' } });
    assert.equal(again.status, 200);
    assert.equal((await storedHash()).password_hash, rehashed, 'a current hash is kept');
  });

  test('malformed JSON is 400 InvalidRequest, not a crash', async () => {
    const result = await app().request('POST', '/auth/login', { body: '{"identifier": ' });
    assert.equal(result.status, 400);
    assert.equal(result.body.error, 'InvalidRequest');
  });
});

describeWithApp(
  'closed sign-up',
  (app) => {
    test('sign-up is 403 SignupClosed', async () => {
      const result = await app().request('POST', '/auth/signup', { body: { handle: 'erin', password: 'long enough pw' } });
      assert.equal(result.status, 403);
      assert.equal(result.body.error, 'SignupClosed');
    });
  },
  { signup: 'closed' },
);
