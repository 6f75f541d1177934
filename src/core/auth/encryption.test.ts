import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { isSealed, open, seal } from './encryption.ts';

const key = randomBytes(32);

test('a sealed value opens to the plaintext, and each sealing uses a fresh nonce', () => {
  const first = seal(key, 'md5 digest', 'row-1');
  const second = seal(key, 'md5 digest', 'row-1');
  assert.ok(isSealed(first));
  assert.notEqual(first, second);
  assert.ok(!first.includes('md5 digest'));
  assert.equal(open(key, first, 'row-1'), 'md5 digest');
  assert.equal(open(key, second, 'row-1'), 'md5 digest');
});

test('a value altered, opened under another key or for another context is refused', () => {
  const sealed = seal(key, 'secret', 'row-1');
  const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
  assert.throws(() => open(key, flipped, 'row-1'));
  assert.throws(() => open(randomBytes(32), sealed, 'row-1'));
  assert.throws(() => open(key, sealed, 'row-2'));
  assert.throws(() => open(key, 'v1:AAAA', 'row-1'), /truncated/);
  assert.throws(() => open(key, '0123456789abcdef0123456789abcdef', 'row-1'), /not a sealed value/);
});
