import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XrpcError } from '../../../toolkit/errors.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { FOLLOWING_FEED, parseFeedUri, RECENT_FEED } from './feed-uri.ts';

const position = { listenedAt: '2024-05-01T12:00:00.123456Z', id: '0b6e4f3a-9a2c-4f61-8c1e-3d2b1a0f9e8d' };

describe('feed cursors', () => {
  it('round-trip a position, keeping microseconds', () => {
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
    assert.match(encodeCursor(position), /^[A-Za-z0-9_-]+$/);
  });

  it('reject anything encodeCursor did not produce with 400 InvalidRequest', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      'not a cursor',
      '!!!',
      b64('2024-05-01T12:00:00Z|0b6e4f3a-9a2c-4f61-8c1e-3d2b1a0f9e8d'),
      b64(`${position.listenedAt}|not-a-uuid`),
      b64(`${position.listenedAt}`),
      b64(`2024-13-45T99:00:00.000000Z|${position.id}`),
      b64(`${position.listenedAt}|${position.id}|extra`),
    ]) {
      assert.throws(
        () => decodeCursor(cursor),
        (error: unknown) => error instanceof XrpcError && error.status === 400 && error.error === 'InvalidRequest',
        cursor,
      );
    }
  });
});

describe('feed URIs', () => {
  it('name the built-in feeds', () => {
    assert.deepEqual(parseFeedUri(RECENT_FEED), { kind: 'recent' });
    assert.deepEqual(parseFeedUri(FOLLOWING_FEED), { kind: 'following' });
    assert.deepEqual(parseFeedUri('earshot:feed:user:alice'), { kind: 'user', actor: 'alice' });
    assert.deepEqual(parseFeedUri('earshot:feed:user:did:plc:abc'), { kind: 'user', actor: 'did:plc:abc' });
  });

  it('are null for anything else', () => {
    for (const uri of ['', 'earshot:feed:', 'earshot:feed:user:', 'earshot:feed:popular', 'at://feed/recent', 'earshot:feed:recent ']) {
      assert.equal(parseFeedUri(uri), null, uri);
    }
  });
});
