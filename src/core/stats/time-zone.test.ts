import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import { checkTimeZone, chooseTimeZone } from './time-zone.ts';

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

describe('checkTimeZone', () => {
  it('takes IANA names in any case and their aliases, spelling a name as ICU does when only the case differs', () => {
    assert.equal(checkTimeZone('europe/berlin'), 'Europe/Berlin');
    assert.equal(checkTimeZone('utc'), 'UTC');
    for (const alias of ['Asia/Kolkata', 'US/Eastern', 'Etc/UTC', 'GMT']) assert.equal(checkTimeZone(alias), alias);
  });

  it('names the refused zone in the message', () => {
    assert.throws(() => checkTimeZone('Atlantis/Capital'), { message: 'unknown time zone Atlantis/Capital; use an IANA name such as Europe/Berlin' });
  });
});
