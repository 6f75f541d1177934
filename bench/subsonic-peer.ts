import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deriveKeys } from '../src/core/auth/index.ts';
import { createApiKey } from '../src/core/auth/api-keys.ts';
import { reportSummary, scanLibrary } from '../src/core/library/scan/index.ts';
import { Metrics } from '../src/core/ops/metrics.ts';
import { startHosts } from '../src/app/server.ts';
import { loadConfig } from '../src/toolkit/config.ts';
import { benchTargets, median } from './harness.ts';
import { generateFolder } from './library-scan.ts';

/**
 * Earshot beside supysonic (Debian's Python Subsonic server, on SQLite) over the same generated
 * library: both scan it, then one client times the same Subsonic calls against each over
 * loopback, the servers taking turns round by round. Each figure is requests a second over a
 * batch; the ratio is Earshot's over supysonic's (above 1: Earshot is faster).
 * Skips, with a message, when supysonic-cli and supysonic-server are not installed.
 */
export async function subsonicPeerBenchmark(): Promise<void> {
  if (!installed('supysonic-cli') || !installed('supysonic-server')) {
    console.log('subsonic-peer: skipped, supysonic is not installed (apt-get install supysonic python3-waitress)');
    return;
  }
  const count = Number(process.env.BENCH_PEER_FILES ?? 2_000);
  const rounds = Number(process.env.BENCH_RUNS ?? 7);
  const batch = Number(process.env.BENCH_PEER_BATCH ?? 50);
  const work = await mkdtemp(join(tmpdir(), 'earshot-bench-peer-'));
  const root = join(work, 'music');
  let peer: ChildProcess | undefined;
  try {
    await generateFolder(root, count);
    const supysonic = await startSupysonic(work, root);
    peer = supysonic.process;
    console.log(`subsonic peer: ${count} files, ${rounds} rounds of ${batch} requests a call, one client, servers in turn`);
    for await (const target of benchTargets()) {
      const ctx = {
        config: { ...loadConfig({ EARSHOT_RATE_LIMITS: 'off' }), port: 0, musicDir: root },
        db: target.db,
        keys: deriveKeys('bench-secret-'.padEnd(48, 'x')),
        metrics: new Metrics(target.db),
      };
      const hosts = await startHosts(ctx, ['api'], false);
      try {
        const scan = await scanLibrary(ctx);
        if (scan.added !== count) throw new Error(`Earshot's scan added ${scan.added} of ${count} files: ${reportSummary(scan)}`);
        const user = await target.db.insertInto('users').values({ did: 'did:plc:benchpeer', handle: 'bench.peer' }).returning('id').executeTakeFirstOrThrow();
        const { key } = await createApiKey(target.db, ctx.keys, { userId: user.id }, { name: 'bench', description: '' });
        const earshot = await subsonicServer(`${hosts.urls.api}/rest`, 'bench.peer', key);
        await measure(`${target.name} Earshot`, earshot, 'supysonic', supysonic.server, rounds, batch);
      } finally {
        await hosts.close();
        await target.close();
      }
    }
  } finally {
    peer?.kill();
    await rm(work, { recursive: true, force: true });
  }
}

const installed = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** A free loopback port, for supysonic-server to listen on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * supysonic configured in `work` (it reads supysonic.conf from its working directory): a SQLite
 * database, a user, the music folder scanned in the foreground, then served by waitress on loopback.
 */
async function startSupysonic(work: string, root: string): Promise<{ process: ChildProcess; server: SubsonicServer }> {
  await writeFile(
    join(work, 'supysonic.conf'),
    `[base]\ndatabase_uri = sqlite:///${join(work, 'supysonic.db')}\n[webapp]\ncache_dir = ${join(work, 'cache')}\nlog_level = WARNING\nmount_webui = off\n`,
  );
  const cli = (...args: string[]) => {
    const run = spawnSync('supysonic-cli', args, { cwd: work, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`supysonic-cli ${args.join(' ')}: ${run.stderr}`);
  };
  cli('user', 'add', 'bench', '--password', 'bench-password');
  cli('folder', 'add', 'music', root);
  const started = performance.now();
  cli('folder', 'scan', '--foreground', 'music');
  console.log(`  supysonic scanned in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const process = spawn('supysonic-server', ['--server', 'waitress', '--host', '127.0.0.1', '--port', String(port)], { cwd: work, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}/rest`;
  for (let attempt = 0; ; attempt++) {
    try {
      return { process, server: await subsonicServer(base, 'bench', 'bench-password') };
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A Subsonic server as the client sees it: how to call it, and ids of its albums, songs and covers to ask for. */
interface SubsonicServer {
  call(method: string, params?: Record<string, string>): Promise<Response>;
  albums: string[];
  songs: string[];
  covers: string[];
}

/** Connects as `user` and collects ids the same way on both servers: the first 100 albums by name, then their songs and covers. */
async function subsonicServer(base: string, user: string, password: string): Promise<SubsonicServer> {
  const call = (method: string, params: Record<string, string> = {}) =>
    fetch(`${base}/${method}.view?${new URLSearchParams({ u: user, p: password, v: '1.16.1', c: 'bench', f: 'json', ...params })}`);
  const json = async (method: string, params: Record<string, string>) => {
    const body = (await (await call(method, params)).json()) as { 'subsonic-response': Record<string, any> };
    if (body['subsonic-response'].status !== 'ok') throw new Error(`${method}: ${JSON.stringify(body)}`);
    return body['subsonic-response'];
  };
  const list = await json('getAlbumList2', { type: 'alphabeticalByName', size: '100' });
  const albums: string[] = list.albumList2.album.map((album: { id: string }) => album.id);
  const songs: string[] = [];
  const covers: string[] = [];
  for (const id of albums.slice(0, 20)) {
    const { album } = await json('getAlbum', { id });
    if (album.coverArt) covers.push(album.coverArt);
    songs.push(...album.song.map((song: { id: string }) => song.id));
  }
  if (albums.length === 0 || songs.length === 0 || covers.length === 0) throw new Error(`${base}: no albums, songs or covers`);
  return { call, albums, songs, covers };
}

/** The calls measured: each request of a batch takes the next id in turn; bodies are read to the end. */
const CALLS: [string, (server: SubsonicServer, i: number) => Promise<Response>][] = [
  ['ping', (server) => server.call('ping')],
  ['getCoverArt', (server, i) => server.call('getCoverArt', { id: server.covers[i % server.covers.length]! })],
  ['search3', (server, i) => server.call('search3', { query: `Song ${i % 100}`, artistCount: '20', albumCount: '20', songCount: '20' })],
  ['getAlbum', (server, i) => server.call('getAlbum', { id: server.albums[i % server.albums.length]! })],
  ['getAlbumList2', (server, i) => server.call('getAlbumList2', { type: 'alphabeticalByName', size: '50', offset: String((i % 4) * 25) })],
  ['stream', (server, i) => server.call('stream', { id: server.songs[i % server.songs.length]! })],
];

/** Requests a second of one batch of `batch` calls made one after another. */
async function batchRate(server: SubsonicServer, request: (server: SubsonicServer, i: number) => Promise<Response>, batch: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < batch; i++) {
    const response = await request(server, i);
    const body = Buffer.from(await response.arrayBuffer());
    // A Subsonic failure is a 200 too: only an ok document or bytes that are not JSON count.
    const failed = response.headers.get('content-type')?.includes('json') && !body.toString().includes('"status":"ok"');
    if (response.status !== 200 || failed) throw new Error(`${response.url}: ${response.status} ${body.toString().slice(0, 300)}`);
  }
  return (batch * 1000) / (performance.now() - start);
}

async function measure(label: string, measured: SubsonicServer, baselineLabel: string, baseline: SubsonicServer, rounds: number, batch: number) {
  const fixed = (rate: number) => rate.toFixed(rate < 100 ? 1 : 0);
  const range = (rates: number[]) => `${fixed(median(rates))} (${fixed(Math.min(...rates))}-${fixed(Math.max(...rates))})`;
  for (const [name, request] of CALLS) {
    await batchRate(measured, request, batch);
    await batchRate(baseline, request, batch);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Who goes first alternates too: neither always meets the other's leftovers.
      if (round % 2 === 0) {
        ours.push(await batchRate(measured, request, batch));
        theirs.push(await batchRate(baseline, request, batch));
      } else {
        theirs.push(await batchRate(baseline, request, batch));
        ours.push(await batchRate(measured, request, batch));
      }
    }
    const ratio = median(ours) / median(theirs);
    console.log(`  ${name}: ${label} ${range(ours)} req/s | ${baselineLabel} ${range(theirs)} req/s | ratio ${ratio.toFixed(2)}x`);
  }
}
