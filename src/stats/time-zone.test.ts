import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XrpcError } from '../api/errors.ts';
import { chooseTimeZone } from './time-zone.ts';

describe('chooseTimeZone', () => {
  it('takes IANA names, else the fallback', () => {
    assert.equal(chooseTimeZone('Europe/Berlin'), 'Europe/Berlin');
    assert.equal(chooseTimeZone('UTC', 'Asia/Tokyo'), 'UTC');
    assert.equal(chooseTimeZone(undefined, 'Asia/Tokyo'), 'Asia/Tokyo');
    assert.equal(chooseTimeZone(undefined), 'UTC');
  });

  it('refuses unknown names and bare offsets, which PostgreSQL would read with POSIX signs', () => {
    for (const zone of ['Mars/Olympus', '+01:00', 'Z', '', 'Europe/Berlin; drop table users']) {
      assert.throws(
        () => chooseTimeZone(zone),
        (error: unknown) => error instanceof XrpcError && error.status === 400 && error.error === 'InvalidRequest',
        zone,
      );
    }
  });
});
