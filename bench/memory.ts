// Memory of the built server and CLI on the embedded database (issue 26): `earshot serve`'s resident set once it is
// ready and idle, and the peak of each CLI command that opens the database, starting from a fresh data directory.
// Needs dist (node scripts/build-server.mjs). BENCH_MEMORY_ROUNDS (default 3) runs of each, median with min-max;
// BENCH_MEMORY_PLAYS (default 2000) rows in the imported file; BENCH_MEMORY_IDLE_SECONDS (default 5) of idle.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from './harness.ts';

const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);
const PLAYS = Number(process.env.BENCH_MEMORY_PLAYS ?? 2000);
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 5);
const MAIN = path.resolve('dist/src/cli/main.js');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** VmRSS and VmHWM of a running process, in MiB. */
function residentMiB(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** The server on `dataDir`, ready and idle for IDLE_SECONDS: its resident set then. */
async function idleServe(env: NodeJS.ProcessEnv): Promise<{ rss: number; hwm: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, 'serve'], { env: { ...env, PORT: String(port), SCROBBLER_PORT: String(await freePort()) }, stdio: 'ignore' });
  try {
    for (let waited = 0; ; waited += 200) {
      if (child.exitCode !== null) throw new Error(`earshot serve exited with ${child.exitCode}`);
      if (waited > 120_000) throw new Error('earshot serve was not ready within 2 minutes');
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await sleep(200);
    }
    await sleep(IDLE_SECONDS * 1000);
    return residentMiB(child.pid!);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** A CLI command's peak resident set (GNU time's maximum RSS), in MiB. */
function cliPeak(args: string[], env: NodeJS.ProcessEnv): number {
  const timeFile = path.join(os.tmpdir(), `earshot-bench-time-${process.pid}`);
  execFileSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, MAIN, ...args], { env, stdio: 'ignore' });
  const kib = Number(fs.readFileSync(timeFile, 'utf8').trim().split('\n').at(-1));
  fs.rmSync(timeFile, { force: true });
  return kib / 1024;
}

function lastfmCsv(file: string): void {
  const rows = Array.from({ length: PLAYS }, (_, n) => `${1_500_000_000 + n * 240},,Artist ${n % 50},,Album ${n % 120},,Song ${n % 700},`);
  fs.writeFileSync(file, ['uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid', ...rows].join('\n'));
}

type Row = { label: string; values: number[] };

async function oneRound(rows: Map<string, number[]>): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-bench-memory-'));
  const record = (label: string, value: number) => rows.set(label, [...(rows.get(label) ?? []), value]);
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      EARSHOT_DATA_DIR: path.join(home, 'data'),
      EARSHOT_ENRICH: 'off',
      EARSHOT_PASSWORD: 'bench-password-123',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    };
    const fresh = await idleServe(env);
    record('serve, fresh data directory: idle RSS', fresh.rss);
    record('serve, fresh data directory: peak (VmHWM)', fresh.hwm);
    const again = await idleServe(env);
    record('serve, existing data directory: idle RSS', again.rss);
    record('serve, existing data directory: peak (VmHWM)', again.hwm);

    // The CLI from a data directory of its own, fresh: the first command creates the database.
    const cliEnv = { ...env, EARSHOT_DATA_DIR: path.join(home, 'cli-data') };
    record('user create --direct (fresh): peak', cliPeak(['user', 'create', 'bench', '--direct'], cliEnv));
    const csv = path.join(home, 'plays.csv');
    lastfmCsv(csv);
    record(`import lastfm --direct (${PLAYS} plays): peak`, cliPeak(['import', 'lastfm', csv, '--direct', '--user', 'bench'], cliEnv));
    record('stats rebuild: peak', cliPeak(['stats', 'rebuild'], cliEnv));
    record('backup: peak', cliPeak(['backup', '--out', path.join(home, 'backup.tar.gz')], cliEnv));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export async function memoryBenchmark(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: node scripts/build-server.mjs first`);
  const rows = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) await oneRound(rows);
  console.log(`\nmemory (embedded database, MiB; ${ROUNDS} rounds, median (min-max))`);
  const table: Row[] = [...rows].map(([label, values]) => ({ label, values }));
  for (const { label, values } of table) {
    const fmt = (v: number) => v.toFixed(0);
    console.log(`  ${label.padEnd(48)} ${fmt(median(values)).padStart(5)} (${fmt(Math.min(...values))}-${fmt(Math.max(...values))})`);
  }
}
