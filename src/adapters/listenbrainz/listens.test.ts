import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import { DEFAULT_ITEMS_PER_GET, listensWindowFrom, MAX_ITEMS_PER_GET } from './listens.ts';

test('listensWindowFrom reads count, min_ts and max_ts as ListenBrainz does', () => {
  assert.deepEqual(listensWindowFrom({}), { count: DEFAULT_ITEMS_PER_GET, minTs: undefined, maxTs: undefined });
  assert.deepEqual(listensWindowFrom({ count: '3', max_ts: '1700000000' }), { count: 3, minTs: undefined, maxTs: 1_700_000_000 });
  assert.deepEqual(listensWindowFrom({ min_ts: ['1700000000', '5'] }), { count: DEFAULT_ITEMS_PER_GET, minTs: 1_700_000_000, maxTs: undefined });
  assert.equal(listensWindowFrom({ count: '5000' }).count, MAX_ITEMS_PER_GET);
  assert.equal(listensWindowFrom({ count: '0' }).count, 0);
  // Both together are a window (ListenBrainz refuses them; multi-scrobbler sends them).
  assert.deepEqual(listensWindowFrom({ min_ts: '1', max_ts: '2' }), { count: DEFAULT_ITEMS_PER_GET, minTs: 1, maxTs: 2 });
});

test('listensWindowFrom refuses what ListenBrainz refuses', () => {
  for (const [query, message] of [
    [{ count: '-1' }, /'count' should be a non-negative integer/],
    [{ count: 'ten' }, /'count' should be a non-negative integer/],
    [{ max_ts: 'now' }, /Invalid max_ts argument: now/],
    [{ min_ts: '1.5' }, /Invalid min_ts argument/],
  ] as const) {
    assert.throws(
      () => listensWindowFrom(query),
      (error: unknown) => error instanceof XrpcError && error.status === 400 && message.test(error.message),
    );
  }
});
