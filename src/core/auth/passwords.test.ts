import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentScryptCost, hashPassword, needsRehash, OWASP_SCRYPT_COST, verifyPassword } from './passwords.ts';

test('new hashes get OWASP scrypt minimum (N=2^17, r=8, p=1) unless a test suite lowers N', () => {
  assert.deepEqual(currentScryptCost({}), { N: 131072, r: 8, p: 1 });
  assert.deepEqual(currentScryptCost({ EARSHOT_SCRYPT_LOG2_N: '12' }), { N: 4096, r: 8, p: 1 });
  for (const bad of ['', 'abc', '9', '21', '12.5']) assert.deepEqual(currentScryptCost({ EARSHOT_SCRYPT_LOG2_N: bad }), OWASP_SCRYPT_COST, bad);
});

test('a hash at the OWASP cost verifies (Node needs maxmem raised for it) and records its cost', async () => {
  const encoded = await hashPassword('correct horse battery', OWASP_SCRYPT_COST);
  assert.match(encoded, /^scrypt\$131072\$8\$1\$/);
  assert.equal(await verifyPassword('correct horse battery', encoded), true);
  assert.equal(await verifyPassword('wrong horse battery', encoded), false);
  assert.equal(needsRehash(encoded, OWASP_SCRYPT_COST), false);
});

test('a hash at another cost, or not a hash at all, needs a rehash', async () => {
  const old = await hashPassword('correct horse battery', { N: 1024, r: 8, p: 1 });
  assert.equal(await verifyPassword('correct horse battery', old), true);
  assert.equal(needsRehash(old, OWASP_SCRYPT_COST), true);
  assert.equal(needsRehash('not a hash', OWASP_SCRYPT_COST), true);
  assert.equal(await verifyPassword('anything', 'not a hash'), false);
});
