import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import { MultipartReader, multipartBoundary } from './multipart.ts';

const LIMITS = { maxBodyBytes: 1024 * 1024, maxFieldBytes: 1024 };

/** A body as fetch's FormData writes one: a JSON field and a picture. */
function body(boundary: string, picture: Buffer, json = '{"event":"media.play"}'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${json}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="thumb"; filename="thumb.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

/** Feeds `bytes` in chunks of `size`, as a socket might deliver them. */
function read(boundary: string, bytes: Buffer, size: number, limits = LIMITS): Map<string, string> {
  const reader = new MultipartReader(boundary, limits);
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
  return reader.end();
}

test('the boundary is read quoted or bare', () => {
  assert.equal(multipartBoundary('multipart/form-data; boundary=abc123'), 'abc123');
  assert.equal(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"'), 'a b:c');
  assert.equal(multipartBoundary('multipart/form-data'), undefined);
});

test('fields are kept and file parts dropped, however the body is cut into chunks', () => {
  // A picture holding the boundary's first bytes and line breaks, so a split delimiter is exercised.
  const picture = Buffer.concat([Buffer.alloc(5000, 7), Buffer.from('\r\n--XyZ'), Buffer.alloc(3000, 9)]);
  const bytes = body('XyZzy', picture, '{"event":"media.scrobble","title":"Jóga"}');
  for (const size of [1, 2, 7, 64, 1000, bytes.length]) {
    assert.deepEqual([...read('XyZzy', bytes, size)], [['payload', '{"event":"media.scrobble","title":"Jóga"}']], `chunks of ${size}`);
  }
});

test('a file larger than any field limit is read past; the body cap still holds', () => {
  const bytes = body('b', Buffer.alloc(200_000, 1));
  assert.deepEqual([...read('b', bytes, 16_384)].length, 1);
  assert.throws(
    () => read('b', bytes, 16_384, { maxBodyBytes: 100_000, maxFieldBytes: 1024 }),
    (error) => error instanceof XrpcError && error.status === 413,
  );
});

test('a field over its limit is refused with 413; a body without its closing boundary with 400', () => {
  assert.throws(
    () => read('b', body('b', Buffer.alloc(1), `"${'x'.repeat(2000)}"`), 100),
    (error) => error instanceof XrpcError && error.status === 413,
  );
  const cut = body('b', Buffer.alloc(10));
  assert.throws(
    () => read('b', cut.subarray(0, cut.length - 6), 100),
    (error) => error instanceof XrpcError && error.status === 400,
  );
});
