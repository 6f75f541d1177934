import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../src/app/testing.ts';
import { rebuildRollups, statsFoldJob, totalQueuedOf } from '../src/core/stats/index.ts';
import { startBackgroundJobs } from '../src/toolkit/background.ts';
import { benchBackends, median } from './harness.ts';
import { importListens } from './import-throughput.ts';
import { seedRealistic } from './seed.ts';

/**
 * The profile page's five API calls (profile, history, the last 30 days' Wrapped, plays per day,
 * listening clock), each timed alone over HTTP in this process, for a user with
 * BENCH_HEAVY_PLAYS (100k) plays. Cheaper than `web-profile` (no browser) and without its cache:
 * each round first writes a row the reads do not read, which moves the WAL position heavy reads
 * are cached under (src/toolkit/db/heavy-read.ts), so every call computes. Phases:
 * - steady state (rollups rebuilt, queue empty);
 * - right after the user imports BENCH_IMPORT_PLAYS more through Earshot's importer while the fold
 *   job runs every second, as `earshot serve` runs it (stopped once the import has answered, so
 *   nothing more is folded or totalled meanwhile). A first visit is one sample, so it is taken
 *   after each of BENCH_IMPORTS (3) imports, each folded before the next, and reported as their
 *   median and each one; the later visits after the first import, and the visits once the fold
 *   job has taken it (and vacuumed the rollups, as it does after a large drain), follow;
 * - an import as `earshot import --direct` makes it, with no fold job beside it, and the first
 *   visit after.
 */
const CALLS = (did: string, tz: string) =>
  [
    ['getProfile', 'app.svc.actor.getProfile', { did }],
    ['history', 'app.svc.actor.getActorScrobbles', { did, limit: '50' }],
    ['getWrapped', 'app.svc.stats.getWrapped', { did, period: 'last30days', tz }],
    ['chart', 'app.svc.charts.getScrobblesChart', { did, period: 'last30days', tz }],
    ['clock', 'app.svc.stats.getListeningClock', { did, period: 'last30days', tz }],
  ] as const;

async function round(app: TestApp, did: string): Promise<Record<string, number>> {
  await sql`insert into bench_ticks values (1)`.execute(app.ctx.db);
  const times: Record<string, number> = {};
  for (const [label, nsid, params] of CALLS(did, 'Europe/Berlin')) {
    const start = performance.now();
    const url = `${app.apiUrl}/xrpc/${nsid}?${new URLSearchParams(params)}`;
    // A kept-alive connection the server closed while the import held the process fails the
    // first read (ECONNRESET); the call is a read, so it is simply made again.
    const response = await fetch(url).catch(() => fetch(url));
    if (response.status !== 200) throw new Error(`${nsid} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    times[label] = performance.now() - start;
  }
  return times;
}

/** The slowest call's median, then every call's. */
const summary = (rounds: Record<string, number>[]) => {
  const labels = Object.keys(rounds[0]!);
  const medians = labels.map((label) => [label, median(rounds.map((times) => times[label]!))] as const);
  const slowest = medians.reduce((a, b) => (b[1] > a[1] ? b : a));
  return `slowest ${slowest[0]} ${slowest[1].toFixed(0)} ms (${medians.map(([label, ms]) => `${label} ${ms.toFixed(0)}`).join(', ')})`;
};

/** Each round's slowest call, in ms. */
const slowestEach = (rounds: Record<string, number>[]) => rounds.map((times) => Math.max(...Object.values(times)).toFixed(0)).join(', ');

export async function profileReadsBenchmark(): Promise<void> {
  const plays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const imports = Number(process.env.BENCH_IMPORTS ?? 3);
  const year = new Date().getUTCFullYear();
  console.log(`profile reads: the profile page's calls for a user with ${plays} plays in ${year}, each alone, median of ${runs}`);
  for (const backend of benchBackends()) {
    const app = await startTestApp(backend);
    try {
      const { heavy } = await seedRealistic(app.ctx.db, { heavy: [{ handle: 'heavy', plays, year }] });
      const user = heavy.heavy!;
      await sql`create table bench_ticks (n int)`.execute(app.ctx.db);
      await rebuildRollups(app.ctx.db);
      const rounds = async (n: number) => {
        const results: Record<string, number>[] = [];
        for (let i = 0; i < n; i++) results.push(await round(app, user.did));
        return results;
      };
      await rounds(1);
      const steady = await rounds(runs);
      const firstVisits: Record<string, number>[] = [];
      const imported: string[] = [];
      let later: Record<string, number>[] = [];
      let folded: Record<string, number>[] = [];
      for (let visit = 0; visit < imports; visit++) {
        // Each import four years older than the one before, so no play repeats another.
        imported.push(await importAsServed(app, user.id, year - 5 - 4 * visit));
        firstVisits.push(...(await rounds(1)));
        if (visit === 0) later = await rounds(runs - 1);
        // The rest of the fold, as the server's job goes on with it (and, past 20k changes, the vacuum).
        await statsFoldJob(app.ctx.db).run(new AbortController().signal);
        if (visit === 0) folded = await rounds(runs);
      }
      console.log(`  ${backend.name}: steady state: ${summary(steady)}`);
      console.log(
        `  ${backend.name}: first visit right after each of ${imports} imports through the importer, the fold job running: ${summary(firstVisits)} [slowest call each time: ${slowestEach(firstVisits)}] (${imported.join('; ')})`,
      );
      console.log(`  ${backend.name}: the visits after the first import's first, before the rest of the fold: ${summary(later)}`);
      console.log(`  ${backend.name}: after the fold: ${summary(folded)}`);
      // As `earshot import --direct` makes it: no fold job beside it, its plays totalled once stored.
      await importThroughImporter(app, user.id, year - 20);
      const started = performance.now();
      await totalQueuedOf(app.ctx.db, user.id, Number.POSITIVE_INFINITY);
      const totalling = (performance.now() - started) / 1000;
      console.log(
        `  ${backend.name}: an import as \`earshot import --direct\` makes it (no fold job; its plays totalled at its end in ${totalling.toFixed(1)} s), first visit: ${summary(await rounds(1))}`,
      );
    } finally {
      await app.close();
    }
  }
}

/**
 * An import through the importer while the fold job runs every second, as in `earshot serve`; the
 * job stops when the import has answered, so the visits after it see what the import left: how
 * long it took, what was left to fold, and what was left to total.
 */
async function importAsServed(app: TestApp, userId: string, fromYear: number): Promise<string> {
  const jobs = startBackgroundJobs([statsFoldJob(app.ctx.db)], { jobRan: () => undefined });
  const started = performance.now();
  try {
    await importThroughImporter(app, userId, fromYear);
  } finally {
    await jobs.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await sql<{ queued: number; untotalled: number }>`select count(*)::int as queued,
    (count(*) filter (where not totalled))::int as untotalled from stats_queue`.execute(app.ctx.db);
  return `${seconds.toFixed(0)} s, ${rows[0]!.queued} left to fold, ${rows[0]!.untotalled} to total`;
}

/** BENCH_IMPORT_PLAYS plays of the seed's songs through the importer, over three years from the start of `fromYear`. */
async function importThroughImporter(app: TestApp, userId: string, fromYear: number): Promise<void> {
  const count = Number(process.env.BENCH_IMPORT_PLAYS ?? 100_000);
  const tracks = await app.ctx.db.selectFrom('tracks').select(['artist', 'title']).orderBy('id').execute();
  const from = Date.UTC(fromYear, 0, 1);
  const step = (3 * 365 * 86_400_000) / count;
  const listens = Array.from({ length: count }, (_, k) => {
    const { artist, title } = tracks[(k * 7919) % tracks.length]!;
    return { artist, title, listenedAt: new Date(from + k * step).toISOString(), submitted: { artist, title } };
  });
  await importListens(app.ctx.db, app.ctx.config, userId, listens);
}
