/**
 * `npm run bench processes`: 1, 2 and 3 `earshot serve` processes on one PostgreSQL database,
 * connected directly and through PgBouncer in transaction mode, under a realistic mix sent
 * round-robin over them: ListenBrainz submits (to the scrobbler hosts), and getFeed, getWrapped and
 * a Subsonic getArtists (to the API hosts). Reports throughput, p99, how many processor cores Node,
 * PostgreSQL and PgBouncer used, and checks no accepted listen was lost.
 *
 * BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local test server) names the server; each run
 * gets a database of its own. BENCH_SECONDS sets each run's length (10).
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { requestJson } from '../src/cli/api-client.ts';
import { startPgbouncer, pgbouncerMissing, type Pgbouncer } from '../src/toolkit/db/pgbouncer-testing.ts';
import { seedServer, type SeededServer } from '../loadtest/seed.ts';
import { startServer, type StartedServer } from '../loadtest/server.ts';
import { subsonicQuery } from '../loadtest/subsonic.ts';

const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Connections per kind of request, spread over the processes (6 divides among 1, 2 and 3). */
const SUBMIT_CONNECTIONS = 6;
const READ_CONNECTIONS = 6;
/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ). */
const TICKS_PER_SECOND = 100;

type Route = 'direct' | 'pgbouncer';

interface Figures {
  route: Route;
  processes: number;
  submitsPerSecond: number;
  readsPerSecond: number;
  submitP99Ms: number;
  readP99Ms: number;
  tooMany: number;
  failures: number;
  /** Processor cores used on average while the load ran. */
  cores: { node: number; postgres: number; pgbouncer: number; client: number };
  /** Accepted listens not stored; must be 0. */
  lost: number;
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** utime + stime of each process still running, in ticks, by pid. */
function ticks(pids: number[]): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      byPid.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {}
  }
  return byPid;
}

/**
 * Ticks used between two samples: a process started meanwhile counts whole, one that ended
 * meanwhile not at all (its last ticks are not known), so short-lived processes are undercounted.
 */
function ticksBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of after) total += now - (before.get(pid) ?? 0);
  return total;
}

/** Every process of this machine whose command is `name` (PostgreSQL's backends are all `postgres`). */
function pidsOf(name: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `total` connections dealt out over `n` processes, round-robin. */
const share = (total: number, n: number, i: number) => Math.floor(total / n) + (i < total % n ? 1 : 0);

async function measure(
  servers: StartedServer[],
  seeded: SeededServer,
  pgbouncerPid: number | undefined,
): Promise<Omit<Figures, 'route' | 'processes' | 'lost'> & { accepted: number; sent: number }> {
  let n = 0;
  let sent = 0;
  let accepted = 0;
  let subsonicFailures = 0;
  const start = Math.floor(Date.now() / 1000);
  const submit = (url: string, connections: number) =>
    autocannon({
      url,
      connections,
      duration: SECONDS,
      excludeErrorStats: true,
      requests: [
        {
          method: 'POST',
          path: '/1/submit-listens',
          headers: { authorization: `Token ${seeded.apiKey}`, 'content-type': 'application/json' },
          setupRequest(request) {
            sent++;
            const song = seeded.songs[n % seeded.songs.length]!;
            const listen = { listened_at: start - n++, track_metadata: { artist_name: song.artist, track_name: song.title } };
            return { ...request, body: JSON.stringify({ listen_type: 'single', payload: [listen] }) };
          },
          onResponse(status) {
            if (status === 200) accepted++;
          },
        },
      ],
    });
  const reads = (url: string, connections: number) =>
    autocannon({
      url,
      connections,
      duration: SECONDS,
      excludeErrorStats: true,
      requests: [
        { method: 'GET', path: `/xrpc/app.svc.feed.getFeed?${new URLSearchParams({ feed: `earshot:feed:user:${seeded.did}`, limit: '50' })}` },
        { method: 'GET', path: `/xrpc/app.svc.stats.getWrapped?${new URLSearchParams({ did: seeded.did, year: String(seeded.year), tz: 'UTC' })}` },
        {
          method: 'GET',
          path: `/rest/getArtists.view?${subsonicQuery(seeded.apiKey)}`,
          onResponse(_status, body) {
            if (String(body).includes('"status":"failed"')) subsonicFailures++;
          },
        },
      ],
    });
  const nodePids = servers.map((server) => server.pid);
  const bouncerPids = pgbouncerPid ? [pgbouncerPid] : [];
  const before = { node: ticks(nodePids), postgres: ticks(pidsOf('postgres')), pgbouncer: ticks(bouncerPids), client: process.cpuUsage() };
  const started = performance.now();
  const results = await Promise.all(
    servers.flatMap((server, i) => [
      submit(server.scrobblerUrl, share(SUBMIT_CONNECTIONS, servers.length, i)).then((result) => ({ kind: 'submit' as const, result })),
      reads(server.apiUrl, share(READ_CONNECTIONS, servers.length, i)).then((result) => ({ kind: 'read' as const, result })),
    ]),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = (was: Map<number, number>, pids: number[]) => ticksBetween(was, ticks(pids)) / TICKS_PER_SECOND / seconds;
  const client = process.cpuUsage(before.client);
  const of = (kind: 'submit' | 'read') => results.filter((entry) => entry.kind === kind).map((entry) => entry.result);
  const sum = (list: autocannon.Result[], pick: (result: autocannon.Result) => number) => list.reduce((total, result) => total + pick(result), 0);
  const failed = (result: autocannon.Result) =>
    result.errors + Object.entries(result.statusCodeStats ?? {}).reduce((total, [status, { count = 0 }]) => total + (/^[2]|429/.test(status) ? 0 : count), 0);
  return {
    submitsPerSecond: sum(of('submit'), (result) => result['2xx']) / seconds,
    readsPerSecond: sum(of('read'), (result) => result['2xx']) / seconds,
    // The worst process's p99: autocannon reports percentiles per run, which do not merge.
    submitP99Ms: Math.max(...of('submit').map((result) => result.latency.p99)),
    readP99Ms: Math.max(...of('read').map((result) => result.latency.p99)),
    tooMany: sum([...of('submit'), ...of('read')], (result) => result.statusCodeStats?.['429']?.count ?? 0),
    failures: sum([...of('submit'), ...of('read')], failed) + subsonicFailures,
    cores: {
      node: used(before.node, nodePids),
      // Every postgres process of the machine: on a shared server, other programs' queries count too.
      postgres: used(before.postgres, pidsOf('postgres')),
      pgbouncer: used(before.pgbouncer, bouncerPids),
      client: (client.user + client.system) / 1e6 / seconds,
    },
    accepted,
    sent,
  };
}

async function run(route: Route, processes: number, bouncer: Pgbouncer | undefined): Promise<Figures> {
  const database = `earshot_bench_procs_${process.pid}_${route}_${processes}`;
  await admin(`create database ${database}`);
  const databaseUrl = bouncer ? bouncer.url(database) : Object.assign(new URL(BASE_URL), { pathname: `/${database}`, search: '' }).toString();
  const servers: StartedServer[] = [];
  try {
    const env = { DATABASE_URL: databaseUrl, EARSHOT_SECRET: 'one secret shared by every process of the bench', LOG_LEVEL: 'warn' };
    servers.push(...(await Promise.all(Array.from({ length: processes }, () => startServer({ env, music: false })))));
    const seeded = await seedServer({ apiUrl: servers[0]!.apiUrl, scrobblerUrl: servers[0]!.scrobblerUrl, musicFiles: undefined });
    const figures = await measure(servers, seeded, bouncer?.pid);
    const { payload } = await requestJson<{ payload: { count: number } }>(servers[0]!.scrobblerUrl, 'GET', `/1/user/${seeded.handle}/listen-count`);
    const stored = payload.count - seeded.plays;
    // Listens still in flight when the time was up were sent but not counted accepted, so they may be stored too.
    const lost = Math.max(0, figures.accepted - stored) + Math.max(0, stored - figures.sent);
    return { route, processes, ...figures, lost };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await admin(`drop database if exists ${database} with (force)`);
  }
}

const format = (figures: Figures) =>
  [
    figures.route.padEnd(9),
    String(figures.processes).padStart(2),
    figures.submitsPerSecond.toFixed(0).padStart(9),
    figures.readsPerSecond.toFixed(0).padStart(7),
    figures.submitP99Ms.toFixed(0).padStart(10),
    figures.readP99Ms.toFixed(0).padStart(8),
    String(figures.tooMany).padStart(5),
    String(figures.failures).padStart(5),
    String(figures.lost).padStart(5),
    `${figures.cores.node.toFixed(2)} / ${figures.cores.postgres.toFixed(2)} / ${figures.cores.pgbouncer.toFixed(2)} / ${figures.cores.client.toFixed(2)}`.padStart(
      28,
    ),
  ].join(' ');

export async function processesBenchmark(): Promise<void> {
  const missing = pgbouncerMissing();
  const routes: Route[] = missing ? ['direct'] : ['direct', 'pgbouncer'];
  if (missing) console.log(`processes: PgBouncer runs skipped (${missing})`);
  console.log(`processes: ${SECONDS} s each, ${SUBMIT_CONNECTIONS} submit + ${READ_CONNECTIONS} read connections dealt round-robin over the processes`);
  console.log('route     n  submits/s reads/s submit p99 read p99   429  fail  lost   cores node / pg / bouncer / client');
  const all: Figures[] = [];
  for (const route of routes) {
    const bouncer = route === 'pgbouncer' ? await startPgbouncer(BASE_URL, 'transaction') : undefined;
    try {
      for (const processes of [1, 2, 3]) {
        const figures = await run(route, processes, bouncer);
        all.push(figures);
        console.log(format(figures));
      }
    } finally {
      await bouncer?.stop();
    }
  }
  if (all.some((figures) => figures.lost > 0 || figures.failures > 0)) throw new Error('processes: some answers failed or accepted listens were lost');
}
