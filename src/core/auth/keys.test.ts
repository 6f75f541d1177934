import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { deriveKeys, loadServerSecret } from './keys.ts';

test('the server secret is generated once, owner-readable, and reused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-keys-'));
  try {
    const first = loadServerSecret(undefined, dir);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777, 0o600);
    assert.equal(loadServerSecret(undefined, dir), first);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('EARSHOT_SECRET overrides the file and must be long enough', () => {
  assert.equal(loadServerSecret('x'.repeat(32), '/nonexistent'), 'x'.repeat(32));
  assert.throws(() => loadServerSecret('short', '/nonexistent'), /at least 32/);
});

test('each purpose gets its own key', () => {
  const keys = deriveKeys('y'.repeat(40));
  assert.notDeepEqual(keys.jwt, keys.apiKeySharedSecret);
  assert.notDeepEqual(keys.jwt, keys.encryption);
  assert.deepEqual(deriveKeys('y'.repeat(40)).jwt, keys.jwt);
});
