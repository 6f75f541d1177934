import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, seedEmbeddedDatabase } from '../testing.ts';

/** `user promote` and `demote` on the embedded database, as an operator runs them with the server stopped. */
describe('earshot user promote / demote', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-admin-'));
  const env = { ...process.env, EARSHOT_DATA_DIR: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const earshot = (args: string[], input = '') => runCli(env as Record<string, string>, args, input);
  // The commands are the point here, not the embedded database's first start.
  before(() => seedEmbeddedDatabase(env.EARSHOT_DATA_DIR));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('promote and demote a user; an unknown handle fails', async () => {
    for (const handle of ['first', 'second']) assert.equal((await earshot(['user', 'create', handle, '--direct'], 'long password\n')).status, 0);
    const promoted = await earshot(['user', 'promote', 'second']);
    assert.equal(promoted.status, 0, promoted.stderr);
    assert.equal(promoted.stdout.trim(), 'second is now an admin');
    const demoted = await earshot(['user', 'demote', 'first']);
    assert.equal(demoted.stdout.trim(), 'first is no longer an admin');
    const unknown = await earshot(['user', 'promote', 'nobody']);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no user nobody/);
    assert.equal((await earshot(['user', 'promote'])).status, 2);
  });
});
