import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, seedEmbeddedDatabase } from '../testing.ts';

/** `stats rebuild` on the embedded database, as an operator runs it with the server stopped. */
describe('earshot stats rebuild', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-stats-'));
  const env = { ...process.env, EARSHOT_DATA_DIR: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const earshot = (args: string[], input = '') => runCli(env as Record<string, string>, args, input);
  // The commands are the point here, not the embedded database's first start.
  before(() => seedEmbeddedDatabase(env.EARSHOT_DATA_DIR));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('rebuilds the rollups from the plays; extra words are a usage error', async () => {
    const rebuilt = await earshot(['stats', 'rebuild']);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /^Rebuilt the rollups from 0 plays in \d+\.\d s$/m);
    assert.equal((await earshot(['stats', 'rebuild', 'now'])).status, 2);
  });
});
