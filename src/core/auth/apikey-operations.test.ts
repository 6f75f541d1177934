import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { MAX_CREDENTIALS_PER_ACCOUNT } from './credential-cap.ts';

describeWithApp('API keys', (app) => {
  test('createApikey returns the key object plus key and shared secret, once', async () => {
    const { token } = await app().signup('kim');
    const created = await app().procedure('app.svc.apikey.createApikey', { name: 'Pano Scrobbler', description: 'phone' }, token);
    assert.equal(created.status, 200);
    assert.equal(created.body.name, 'Pano Scrobbler');
    assert.equal(created.body.description, 'phone');
    assert.match(created.body.key, /^[0-9a-f]{32}$/);
    assert.match(created.body.sharedSecret, /^[0-9a-f]{32}$/);
    assert.match(created.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const listed = await app().query('app.svc.apikey.getApikeys', {}, token);
    assert.deepEqual(listed.body, {
      apikeys: [{ id: created.body.id, name: 'Pano Scrobbler', description: 'phone', createdAt: created.body.createdAt, lastUsedAt: null }],
    });
  });

  test('keys are stored hashed', async () => {
    const { token } = await app().signup('lee');
    const { body } = await app().procedure('app.svc.apikey.createApikey', { name: 'x' }, token);
    const row = await app().ctx.db.selectFrom('api_keys').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(body.key));
    assert.ok(!JSON.stringify(row).includes(body.sharedSecret));
  });

  test('updateApikey renames and redescribes; removeApikey deletes', async () => {
    const { token } = await app().signup('max');
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'old' }, token);
    const updated = await app().procedure('app.svc.apikey.updateApikey', { id: key.id, name: 'new', description: 'd' }, token);
    assert.equal(updated.status, 200);
    assert.equal(updated.body.name, 'new');
    assert.equal(updated.body.description, 'd');
    const removed = await app().procedure('app.svc.apikey.removeApikey', { id: key.id }, token);
    assert.equal(removed.status, 200);
    assert.deepEqual((await app().query('app.svc.apikey.getApikeys', {}, token)).body, { apikeys: [] });
    assert.equal((await app().query('app.svc.apikey.getApikeys', {}, key.key)).status, 401);
  });

  test("another user's key is 404 NotFound to update or remove", async () => {
    const { token: owner } = await app().signup('ned');
    const { token: stranger } = await app().signup('ola');
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'mine' }, owner);
    for (const nsid of ['app.svc.apikey.updateApikey', 'app.svc.apikey.removeApikey']) {
      const result = await app().procedure(nsid, { id: key.id, name: 'stolen' }, stranger);
      assert.equal(result.status, 404, nsid);
      assert.equal(result.body.error, 'NotFound');
    }
    assert.equal((await app().query('app.svc.apikey.getApikeys', {}, owner)).body.apikeys[0].name, 'mine');
  });

  test('bad input is 400 InvalidRequest', async () => {
    const { token } = await app().signup('pat');
    for (const [nsid, input] of [
      ['app.svc.apikey.createApikey', {}],
      ['app.svc.apikey.createApikey', { name: ' ' }],
      ['app.svc.apikey.createApikey', { name: 42 }],
      ['app.svc.apikey.createApikey', { name: 'ok', description: 'x'.repeat(1001) }],
      ['app.svc.apikey.updateApikey', { id: 'nope' }],
      ['app.svc.apikey.removeApikey', {}],
    ] as const) {
      const result = await app().procedure(nsid, input, token);
      assert.equal(result.status, 400, `${nsid} ${JSON.stringify(input)}`);
      assert.equal(result.body.error, 'InvalidRequest');
    }
  });

  test(`an account holds at most ${MAX_CREDENTIALS_PER_ACCOUNT} keys, even created at once: more are 409 LimitExceeded until one is removed`, async () => {
    const { token } = await app().signup('quin');
    const create = (name: string, as = token) => app().procedure('app.svc.apikey.createApikey', { name }, as);
    for (let i = 0; i < MAX_CREDENTIALS_PER_ACCOUNT - 5; i++) assert.equal((await create(`player ${i}`)).status, 200);
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`racing ${i}`)));
    assert.deepEqual(racing.map((result) => result.status).sort(), [...Array(5).fill(200), ...Array(5).fill(409)]);
    const refused = await create('one too many');
    assert.equal(refused.status, 409);
    assert.deepEqual(Object.keys(refused.body).sort(), ['error', 'message']);
    assert.equal(refused.body.error, 'LimitExceeded');
    assert.match(refused.body.message, new RegExp(`at most ${MAX_CREDENTIALS_PER_ACCOUNT} API keys`));
    const { apikeys } = (await app().query('app.svc.apikey.getApikeys', {}, token)).body;
    assert.equal(apikeys.length, MAX_CREDENTIALS_PER_ACCOUNT);

    const { token: other } = await app().signup('ria');
    assert.equal((await create('their own', other)).status, 200, 'other accounts are not affected');
    assert.equal((await app().procedure('app.svc.apikey.removeApikey', { id: apikeys[0].id }, token)).status, 200);
    assert.equal((await create('after removing one')).status, 200);
  });

  test('all API key operations need auth', async () => {
    assert.equal((await app().procedure('app.svc.apikey.createApikey', { name: 'x' })).body.error, 'AuthMissing');
    assert.equal((await app().query('app.svc.apikey.getApikeys')).status, 401);
  });
});
