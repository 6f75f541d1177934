import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { describeWithApp } from '../../app/testing.ts';

const NSID = 'app.svc.apikey.getApikeys';

describeWithApp('Bearer authentication', (app) => {
  test('garbage, wrong scheme, wrong signature are 401 InvalidToken', async () => {
    const foreignKey = new TextEncoder().encode('some other server secret value!!');
    const forged = await new SignJWT({ kind: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('earshot')
      .setSubject('did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')
      .sign(foreignKey);
    for (const authorization of ['Bearer nonsense', 'Basic dXNlcjpwYXNz', `Bearer ${forged}`, 'Bearer a.b.c']) {
      const result = await app().request('GET', `/xrpc/${NSID}`, { headers: { authorization } });
      assert.equal(result.status, 401, authorization);
      assert.equal(result.body.error, 'InvalidToken');
    }
  });

  test('an expired JWT is 401 ExpiredToken', async () => {
    const user = await app().signup('expiring');
    const expired = await new SignJWT({ kind: 'session' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('earshot')
      .setSubject(user.did)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(app().ctx.keys.jwt);
    const result = await app().query(NSID, {}, expired);
    assert.equal(result.status, 401);
    assert.equal(result.body.error, 'ExpiredToken');
  });

  test('no Authorization header is 401 AuthMissing', async () => {
    const result = await app().query(NSID);
    assert.deepEqual(result.body.error, 'AuthMissing');
    assert.equal(result.status, 401);
  });

  test('an API key is accepted as a Bearer credential where API keys are', async () => {
    const { token } = await app().signup('keyholder');
    const { body: created } = await app().procedure('app.svc.apikey.createApikey', { name: 'app' }, token);
    const play = { artist: 'Air', title: 'Playground Love', timestamp: '2025-01-01T10:00:00Z' };
    const result = await app().procedure('app.svc.scrobble.createScrobble', play, created.key);
    assert.equal(result.status, 200);
  });
});
