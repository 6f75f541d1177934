import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { runCli, startServe, stopServe } from '../testing.ts';

/** `earshot backup` / `earshot restore` as real processes on embedded databases: the round trip and every refusal. */
describe('earshot backup and restore', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-backup-cli-'));
  const env = (dir: string): Record<string, string> => {
    const vars: Record<string, string> = { ...(process.env as Record<string, string>), EARSHOT_DATA_DIR: path.join(home, dir), PORT: '0' };
    delete vars.DATABASE_URL;
    return vars;
  };
  const backupFile = path.join(home, 'earshot.tar.gz');
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('a backup restores into another data directory with every account; an existing database is moved aside only when asked', async () => {
    for (const handle of ['keeper', 'second']) {
      const created = runCli(env('first'), ['user', 'create', handle, '--direct'], 'a long enough password\n');
      assert.equal(created.status, 0, created.stderr);
    }
    const backup = runCli(env('first'), ['backup', '--out', backupFile]);
    assert.equal(backup.status, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up .*first\/db to .*earshot\.tar\.gz \([\d.]+ MiB\)/);
    assert.ok(!fs.existsSync(`${backupFile}.partial`));

    const restored = runCli(env('second'), ['restore', backupFile]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /Restored .*second\/db from .*\(2 users\)/);
    // The restored database serves: the accounts sign in.
    const login = runCli(env('second'), ['user', 'create', 'keeper', '--direct'], 'a long enough password\n');
    assert.notEqual(login.status, 0, 'the handle is taken in the restored database');
    assert.match(login.stderr, /taken|exists/i);

    const again = runCli(env('second'), ['restore', backupFile]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already holds a database; add --replace/);
    const replaced = runCli(env('second'), ['restore', backupFile, '--replace']);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.match(replaced.stdout, /the database that was there is now .*db\.before-restore-/);
  });

  test('refusals: a running server, a file that is not a backup, a broken backup, nothing to back up, PostgreSQL', async () => {
    const { server } = await startServe(env('first'));
    try {
      const busy = runCli(env('first'), ['backup', '--out', path.join(home, 'busy.tar.gz')]);
      assert.equal(busy.status, 1);
      assert.match(busy.stderr, /in use by process \d+; stop it first/);
    } finally {
      await stopServe(server);
    }
    fs.writeFileSync(path.join(home, 'notes.txt'), 'not a backup');
    const notBackup = runCli(env('third'), ['restore', path.join(home, 'notes.txt')]);
    assert.equal(notBackup.status, 1);
    assert.match(notBackup.stderr, /is not an Earshot backup/);
    fs.writeFileSync(path.join(home, 'broken.tar.gz'), gzipSync(Buffer.from('not a tar archive at all')));
    const broken = runCli(env('third'), ['restore', path.join(home, 'broken.tar.gz')]);
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /could not be restored/);
    assert.ok(!fs.existsSync(path.join(home, 'third', 'db', 'PG_VERSION')), 'nothing half-restored is left');

    const nothing = runCli(env('fourth'), ['backup']);
    assert.equal(nothing.status, 1);
    assert.match(nothing.stderr, /there is no database in .*fourth\/db to back up/);
    const postgres = runCli({ ...env('first'), DATABASE_URL: 'postgres://earshot@db.example/earshot' }, ['backup']);
    assert.equal(postgres.status, 1);
    assert.match(postgres.stderr, /pg_dump --format=custom --file earshot\.dump "\$DATABASE_URL"/);
  });
});
