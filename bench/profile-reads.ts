import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../src/app/testing.ts';
import { analyzeGrownQueue, rebuildRollups, statsFoldJob, totalAhead } from '../src/core/stats/index.ts';
import { startBackgroundJobs } from '../src/toolkit/background.ts';
import { benchBackends, median } from './harness.ts';
import { importListens } from './import-throughput.ts';
import { seedRealistic } from './seed.ts';

/**
 * The profile page's five API calls (profile, history, the last 30 days' Wrapped, plays per day,
 * listening clock), each timed alone over HTTP in this process, for a user with
 * BENCH_HEAVY_PLAYS (100k) plays: at steady state (rollups rebuilt, queue empty), right after the
 * user imports BENCH_IMPORT_PLAYS more through Earshot's importer (the fold not yet run: the first
 * visit pays whatever the queue costs; the later ones come after its plays are added to the all-time
 * totals, as the server's fold job does before it folds), and once the fold job has taken them
 * (and vacuumed the rollups, as it does after a large drain). Cheaper than `web-profile` (no
 * browser) and without its cache: each round first writes a row the reads do not read, which moves
 * the WAL position heavy reads are cached under (src/toolkit/db/heavy-read.ts), so every call
 * computes. A user's first visit after an import is one sample, so it is taken after each of
 * BENCH_IMPORTS (3) imports, each folded before the next, and reported as their median and each
 * one. Then, as a user of `earshot serve` would see it: BENCH_IMPORT_PLAYS more plays through
 * Earshot's importer while the fold runs every second as the server runs it, and the first visit once the
 * import has answered (with how many changes the fold had left).
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
      let importedMore: Record<string, number>[] = [];
      let folded: Record<string, number>[] = [];
      let totalling = 0;
      for (let visit = 0; visit < imports; visit++) {
        // Each import four years older than the one before, so no play repeats another.
        await importThroughImporter(app, user.id, year - 5 - 4 * visit);
        firstVisits.push(...(await rounds(1)));
        if (visit === 0) {
          // What the server's fold job does first, within seconds of the import: the queue analyzed
          // (vacuum.ts; the import's last batch has done so already), and its plays added to the
          // all-time totals ahead of the fold (totals-ahead.ts).
          const started = performance.now();
          await analyzeGrownQueue(app.ctx.db);
          await totalAhead(app.ctx.db);
          totalling = (performance.now() - started) / 1000;
          importedMore = await rounds(runs - 1);
        }
        // As the server's fold job takes them: the fold, then (past 20k changes) the rollups vacuumed.
        await statsFoldJob(app.ctx.db).run(new AbortController().signal);
        if (visit === 0) folded = await rounds(runs);
      }
      console.log(`  ${backend.name}: steady state: ${summary(steady)}`);
      console.log(
        `  ${backend.name}: first visit right after each of ${imports} imports: ${summary(firstVisits)} [slowest call each time: ${slowestEach(firstVisits)}]`,
      );
      console.log(
        `  ${backend.name}: the visits after the first import's first, the queue analyzed and totalled (${totalling.toFixed(1)} s), not folded: ${summary(importedMore)}`,
      );
      console.log(`  ${backend.name}: after the fold: ${summary(folded)}`);
      const jobs = startBackgroundJobs([statsFoldJob(app.ctx.db)], { jobRan: () => undefined });
      const started = performance.now();
      try {
        await importThroughImporter(app, user.id, year - 20);
      } finally {
        await jobs.stop();
      }
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from stats_queue`.execute(app.ctx.db);
      const served = await rounds(1);
      console.log(
        `  ${backend.name}: an import through the importer with the fold running (${seconds.toFixed(0)} s, ${rows[0]!.n} changes left to fold), first visit: ${summary(served)}`,
      );
    } finally {
      await app.close();
    }
  }
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
