import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../src/app/testing.ts';
import { foldAll, rebuildRollups } from '../src/core/stats/index.ts';
import { benchBackends, median } from './harness.ts';
import { seedRealistic } from './seed.ts';
import { importPlays } from './web-profile.ts';

/**
 * The profile page's five API calls (profile, history, the last 30 days' Wrapped, plays per day,
 * listening clock), each timed alone over HTTP in this process, for a user with
 * BENCH_HEAVY_PLAYS (100k) plays: at steady state (rollups rebuilt, queue empty), right after the
 * user imports BENCH_IMPORT_PLAYS more (the fold not yet run: the first visit pays whatever the
 * queue costs), and once the fold has taken them. Cheaper than `web-profile` (no browser) and
 * without its cache: each round first writes a row the reads do not read, which moves the WAL
 * position heavy reads are cached under (src/toolkit/db/heavy-read.ts), so every call computes.
 * The first visit after the import is reported alone (one sample), as a user would make it.
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

export async function profileReadsBenchmark(): Promise<void> {
  const plays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
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
      await importPlays(app.ctx.db, user.id, year);
      const imported = await rounds(1);
      const importedMore = await rounds(runs - 1);
      await foldAll(app.ctx.db);
      const folded = await rounds(runs);
      console.log(`  ${backend.name}: steady state: ${summary(steady)}`);
      console.log(`  ${backend.name}: first visit right after the import: ${summary(imported)}; the visits after it: ${summary(importedMore)}`);
      console.log(`  ${backend.name}: after the fold: ${summary(folded)}`);
    } finally {
      await app.close();
    }
  }
}
