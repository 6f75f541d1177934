import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../config.ts';
import { openAppContext } from '../../app/server.ts';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

const lockModule = new URL('./data-dir-lock.ts', import.meta.url).pathname;

/** Another Earshot-like process (node running this module) that holds the lock on `dir` until killed. */
async function earshotHolding(dir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import(${JSON.stringify(lockModule)}).then((m) => { m.lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000); })`,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  assert.match(line.toString(), /locked/);
  return child;
}

describe('data directory lock', { skip: process.platform !== 'linux' && 'pid reuse is detected through /proc' }, () => {
  let root: string;
  let sleeper: ChildProcess;
  const children: ChildProcess[] = [];
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-lock-'));
    // A live process that is not Earshot: what a stale pid file's number may name after a crash and a reboot.
    sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(sleeper);
  });
  after(() => {
    for (const child of children) child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const [form, content] of [
    ['with a start time', () => `${sleeper.pid} 1`],
    ['from an Earshot that recorded only the pid', () => `${sleeper.pid}`],
  ] as const) {
    it(`a pid file ${form}, naming a live process that is not Earshot, does not keep the server down`, async () => {
      const dataDir = fs.mkdtempSync(path.join(root, 'data-'));
      fs.writeFileSync(path.join(dataDir, 'db.pid'), content());
      const ctx = await openAppContext(loadConfig({ EARSHOT_DATA_DIR: dataDir }));
      try {
        assert.equal(fs.readFileSync(path.join(dataDir, 'db.pid'), 'utf8').split(' ')[0], String(process.pid));
      } finally {
        await ctx.close();
      }
    });
  }

  it('a live Earshot holding the directory still refuses a second one', async () => {
    const dir = path.join(root, 'held', 'db');
    const holder = await earshotHolding(dir);
    children.push(holder);
    assert.throws(
      () => lockDataDir(dir),
      (error: Error) => error instanceof DataDirInUseError && error.message.includes(String(holder.pid)),
    );
    // The same holder named by an older pid file without a start time is recognised too.
    fs.writeFileSync(`${dir}.pid`, String(holder.pid));
    assert.throws(() => lockDataDir(dir), DataDirInUseError);
  });

  it('a pid file left by a process that has exited is taken over', () => {
    const dir = path.join(root, 'exited', 'db');
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.pid`, '2147483646 12345');
    const release = lockDataDir(dir);
    release();
    assert.equal(fs.existsSync(`${dir}.pid`), false);
  });
});
