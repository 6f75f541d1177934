import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../testing.ts';

/** `user promote` and `demote` on the embedded database, as an operator runs them with the server stopped. */
describe('earshot user promote / demote', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-admin-'));
  const env = { ...process.env, EARSHOT_DATA_DIR: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const earshot = (args: string[], input = '') => runCli(env as Record<string, string>, args, input);
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('promote and demote a user; an unknown handle fails', () => {
    for (const handle of ['first', 'second']) assert.equal(earshot(['user', 'create', handle, '--direct'], 'long password\n').status, 0);
    const promoted = earshot(['user', 'promote', 'second']);
    assert.equal(promoted.status, 0, promoted.stderr);
    assert.equal(promoted.stdout.trim(), 'second is now an admin');
    const demoted = earshot(['user', 'demote', 'first']);
    assert.equal(demoted.stdout.trim(), 'first is no longer an admin');
    const unknown = earshot(['user', 'promote', 'nobody']);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no user nobody/);
    assert.equal(earshot(['user', 'promote']).status, 2);
  });
});
