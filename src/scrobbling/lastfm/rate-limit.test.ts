import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from './rate-limit.ts';

test('a key gets `limit` requests per window, then none until the next window', () => {
  const limiter = new RateLimiter(2, 1000);
  assert.deepEqual([limiter.take('a', 0), limiter.take('a', 10), limiter.take('a', 20)], [true, true, false]);
  assert.equal(limiter.take('b', 30), true, 'keys are counted apart');
  assert.equal(limiter.take('a', 999), false);
  assert.equal(limiter.take('a', 1000), true);
});
