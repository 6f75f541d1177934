import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { dataDirFailure, diskFull, OperatingError, redactDatabaseUrl } from './operating-errors.ts';

test('a database URL is printed with its password replaced, and nothing else changed', () => {
  assert.equal(
    redactDatabaseUrl('postgres://earshot:s3cr%40t@db.example:5432/earshot?sslmode=require'),
    'postgres://earshot:***@db.example:5432/earshot?sslmode=require',
  );
  assert.equal(redactDatabaseUrl('postgres://postgres@127.0.0.1:5432/test'), 'postgres://postgres@127.0.0.1:5432/test');
  assert.ok(!redactDatabaseUrl('not a url with secret').includes('secret'));
});

/** A genuine ENOSPC from the kernel: /dev/full refuses every write as a full disk would. */
function fullDiskError(): unknown {
  try {
    fs.writeFileSync('/dev/full', 'x');
  } catch (error) {
    return error;
  }
  assert.fail('/dev/full accepted a write');
}

test('a full disk is one line saying to free space, from any failure of the data directory too', {
  skip: !fs.existsSync('/dev/full') && 'no /dev/full here',
}, () => {
  const error = fullDiskError();
  const anywhere = diskFull(error);
  const inDataDir = dataDirFailure(error, '/srv/earshot');
  assert.ok(anywhere instanceof OperatingError && inDataDir instanceof OperatingError);
  assert.equal(anywhere.kind, 'disk-full');
  assert.equal(anywhere.message, 'the disk is full: free some space, then start again');
  assert.equal(inDataDir.message, 'the disk is full (writing /srv/earshot): free some space, then start again');
});

test('errors that are not the machine’s are passed on unchanged, keeping their stack for the bug report', () => {
  const bug = new TypeError('undefined is not a function');
  assert.equal(diskFull(bug), bug);
  assert.equal(dataDirFailure(bug, '/srv/earshot'), bug);
});
