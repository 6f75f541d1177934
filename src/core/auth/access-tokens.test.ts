import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { MAX_CREDENTIALS_PER_ACCOUNT } from './credential-cap.ts';

describeWithApp('personal access tokens', (app) => {
  test('create returns the secret once; the list shows only its last four characters', async () => {
    const { token: session } = await app().signup('tina');
    const created = await app().request('POST', '/access-tokens', { token: session, body: { name: 'laptop' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'laptop');
    assert.equal(created.body.lastFour, created.body.token.slice(-4));
    assert.equal(created.body.lastUsedAt, null);

    const listed = await app().request('GET', '/access-tokens', { token: session });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.tokens, [
      { id: created.body.id, name: 'laptop', createdAt: created.body.createdAt, lastUsedAt: null, lastFour: created.body.lastFour },
    ]);
    assert.ok(!JSON.stringify(listed.body).includes(created.body.token));
  });

  test('an access token works as a Bearer credential and records its use', async () => {
    const { token: session } = await app().signup('uma');
    const { body: pat } = await app().request('POST', '/access-tokens', { token: session, body: { name: 'cli' } });
    const viaPat = await app().request('GET', '/access-tokens', { token: pat.token });
    assert.equal(viaPat.status, 200);
    assert.match(viaPat.body.tokens[0].lastUsedAt, /Z$/);
  });

  test(`an account holds at most ${MAX_CREDENTIALS_PER_ACCOUNT} tokens: one more is 409 LimitExceeded until one is revoked`, async () => {
    const { token: session } = await app().signup('zora');
    const create = (name: string) => app().request('POST', '/access-tokens', { token: session, body: { name } });
    const created = [];
    for (let i = 0; i < MAX_CREDENTIALS_PER_ACCOUNT; i++) created.push((await create(`script ${i}`)).body);
    assert.ok(created.every((token) => typeof token.token === 'string'));
    const refused = await create('one too many');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, 'LimitExceeded');
    assert.match(refused.body.message, new RegExp(`at most ${MAX_CREDENTIALS_PER_ACCOUNT} personal access tokens`));
    assert.equal((await app().request('DELETE', `/access-tokens/${created[0].id}`, { token: session })).status, 204);
    assert.equal((await create('after revoking one')).status, 201);
  });

  test('delete revokes at once: the very next request with it is 401 InvalidToken', async () => {
    const { token: session } = await app().signup('vic');
    const { body: pat } = await app().request('POST', '/access-tokens', { token: session, body: { name: 'temp' } });
    assert.equal((await app().query('app.svc.apikey.getApikeys', {}, pat.token)).status, 200);
    const deleted = await app().request('DELETE', `/access-tokens/${pat.id}`, { token: session });
    assert.equal(deleted.status, 204);
    const after = await app().query('app.svc.apikey.getApikeys', {}, pat.token);
    assert.equal(after.status, 401);
    assert.equal(after.body.error, 'InvalidToken');
    assert.deepEqual((await app().request('GET', '/access-tokens', { token: session })).body.tokens, []);
  });

  test("deleting an unknown or another user's token is 404; a malformed id is 400", async () => {
    const { token: owner } = await app().signup('wes');
    const { token: stranger } = await app().signup('xena');
    const { body: pat } = await app().request('POST', '/access-tokens', { token: owner, body: { name: 'mine' } });
    const foreign = await app().request('DELETE', `/access-tokens/${pat.id}`, { token: stranger });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error, 'NotFound');
    const malformed = await app().request('DELETE', '/access-tokens/not-a-uuid', { token: owner });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error, 'InvalidRequest');
    assert.equal((await app().query('app.svc.apikey.getApikeys', {}, pat.token)).status, 200);
  });

  test('a name is required and must not be blank', async () => {
    const { token } = await app().signup('yuri');
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }]) {
      const result = await app().request('POST', '/access-tokens', { token, body });
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.equal(result.body.error, 'InvalidRequest');
    }
  });

  test('every route needs a credential: 401 AuthMissing without one', async () => {
    for (const [method, path] of [
      ['GET', '/access-tokens'],
      ['POST', '/access-tokens'],
      ['DELETE', '/access-tokens/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const result = await app().request(method, path, method === 'POST' ? { body: { name: 'x' } } : {});
      assert.equal(result.status, 401, `${method} ${path}`);
      assert.equal(result.body.error, 'AuthMissing');
    }
  });
});
