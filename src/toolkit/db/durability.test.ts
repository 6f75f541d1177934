import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestBackend } from '../../app/testing.ts';
import { openDatabase } from './database.ts';

/** PGlite as `npm start` runs it: a data directory on disk. */
function durablePglite(dir: string): TestBackend {
  return {
    name: 'pglite',
    async open() {
      const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'db') });
      return { db, close: () => db.destroy() };
    },
  };
}

/** Counts fsync(2) calls made by this process while `fn` runs. */
async function countingFsyncs(fn: () => Promise<void>): Promise<number> {
  const original = fs.fsyncSync;
  let calls = 0;
  fs.fsyncSync = (fd) => {
    calls++;
    original(fd);
  };
  try {
    await fn();
  } finally {
    fs.fsyncSync = original;
  }
  return calls;
}

describe('embedded database durability', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-durable-'));
    app = await startTestApp(durablePglite(dir));
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('syncs to disk at least once per acknowledged listen, before answering', async () => {
    const { token } = await app.signup('durable');
    const listens = 20;
    const syncs = await countingFsyncs(async () => {
      for (let i = 0; i < listens; i++) {
        const result = await app.procedure(
          'app.svc.scrobble.createScrobble',
          { artist: 'Durable Artist', title: `Song ${i}`, timestamp: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() },
          token,
        );
        assert.equal(result.status, 200, JSON.stringify(result.body));
      }
    });
    assert.ok(syncs >= listens, `${syncs} fsync calls for ${listens} acknowledged listens`);
  });

  it('a new data directory is synced as a whole when created', { skip: !fs.existsSync('/proc/self/fd') && 'needs /proc to name synced files' }, async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-durable-new-'));
    const dataDir = path.join(fresh, 'db');
    const synced = new Set<string>();
    const original = fs.fsyncSync;
    fs.fsyncSync = (fd) => {
      synced.add(fs.readlinkSync(`/proc/self/fd/${fd}`));
      original(fd);
    };
    try {
      const db = await openDatabase({ kind: 'pglite', dataDir });
      await db.destroy();
    } finally {
      fs.fsyncSync = original;
    }
    try {
      const real = fs.realpathSync(dataDir);
      for (const file of ['PG_VERSION', 'global/pg_control', 'base', ''])
        assert.ok(synced.has(path.join(real, file)), `${file || 'the data directory'} was not synced`);
      assert.ok(synced.has(path.dirname(real)), 'the directory naming the data directory was not synced');
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
