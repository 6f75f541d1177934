import { spawnSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { chromiumPath, launch, VIEWPORTS } from '../src/adapters/web/browser-testing.ts';
import { startTestApp } from '../src/app/testing.ts';
import { sql } from 'kysely';
import { rebuildRollups, statsFoldJob } from '../src/core/stats/index.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { benchBackends, median } from './harness.ts';
import { seedRealistic } from './seed.ts';

/**
 * The profile page of a user with 100k plays in real Chromium: how long it shows a loading
 * indicator against the slowest API call it waited on. Each run is a first visit (a fresh
 * browser context: nothing cached), signed out; the page is ready when it shows the profile, its
 * history, chart and listening clock and no loading note (a `role="status"` with words) is left. The API calls are
 * read from Resource Timing; the ratio ready / slowest call is the figure (1.0x: the page waits
 * for nothing but that call).
 *
 * Then the same page as the statistics' queue (src/core/stats/rollups/queue-marks.ts) changes
 * under it, each phase's slowest call against steady state's: right after the seed (everyone's
 * plays queued, as after bulk imports), steady state (rollups rebuilt, queue empty), right after
 * the user imports BENCH_IMPORT_PLAYS more plays (500 a statement, as import batches go), and
 * once the fold has taken them (what a user sees a minute later). Within a phase, later visits may
 * get the heavy reads' answers from their cache (nothing is written between visits);
 * `profile-reads` (profile-reads.ts) times each call computed afresh.
 */

interface Run {
  ready: number;
  slowest: number;
  slowestName: string;
  calls: number;
  /** When the first API call started (the app's own download and start before it) and the last one answered. */
  firstStart: number;
  lastEnd: number;
}

/** Ready when every part is on the page and nothing says it is loading; answers the time since navigation start. */
const READY = `(() => {
  const shown = document.querySelector('h1') && document.querySelector('ol.plays') && document.querySelector('.profile-stats .recharts-wrapper, .profile-stats table.clock');
  const clock = document.querySelector('table.clock');
  // A loading note says so in words; Recharts' tooltip is an empty status region until hovered.
  const loading = [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent.trim() !== '');
  return shown && clock && !loading ? performance.now() : false;
})()`;

/** What keeps the page from being ready, for a timeout's message. */
const STILL_LOADING = `JSON.stringify({
  loading: [...document.querySelectorAll('[role="status"]')].map((e) => e.textContent).filter(Boolean),
  chart: Boolean(document.querySelector('.profile-stats .recharts-wrapper')),
  clock: Boolean(document.querySelector('table.clock')),
  history: Boolean(document.querySelector('ol.plays')),
})`;

const API_CALLS = `performance.getEntriesByType('resource').filter((e) => e.name.includes('/xrpc/')).map((e) => ({ name: e.name, duration: e.duration, start: e.startTime, end: e.responseEnd }))`;

async function visit(browser: Browser, url: string): Promise<Run> {
  // The readiness check is a string the page evaluates; the app's CSP (script-src 'self') forbids that, so it is bypassed.
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(url);
    const ready = Number(
      await (
        await page.waitForFunction(READY, undefined, { polling: 'raf', timeout: 120_000 }).catch(async (error: Error) => {
          throw new Error(`${error.message}; still loading: ${await page.evaluate<string>(STILL_LOADING)}`);
        })
      ).jsonValue(),
    );
    const calls = await page.evaluate<{ name: string; duration: number; start: number; end: number }[]>(API_CALLS);
    const slowest = calls.reduce((worst, call) => (call.duration > worst.duration ? call : worst));
    return {
      ready,
      slowest: slowest.duration,
      slowestName: new URL(slowest.name).pathname.replace('/xrpc/', ''),
      calls: calls.length,
      firstStart: Math.min(...calls.map((call) => call.start)),
      lastEnd: Math.max(...calls.map((call) => call.end)),
    };
  } finally {
    await context.close();
  }
}

/**
 * A bulk import's effect on the queue: BENCH_IMPORT_PLAYS (default 100k) plays for `userId` in the
 * three years before `year`'s seeded ones, 500 a statement, as import batches insert them.
 */
export async function importPlays(db: Database, userId: string, year: number): Promise<void> {
  const count = Number(process.env.BENCH_IMPORT_PLAYS ?? 100_000);
  const from = Date.UTC(year - 5, 0, 1) / 1000;
  const step = (3 * 365 * 86_400) / count;
  for (let first = 0; first < count; first += 500) {
    await sql`insert into scrobbles (user_id, track_id, listened_at, source)
      select ${userId}::uuid, t.id, to_timestamp(${from}::float8 + k * ${step}::float8), 'bench'
      from generate_series(${first}::int, ${Math.min(count, first + 500) - 1}::int) k
      join (select id, row_number() over (order by id)::int as n from tracks) t on t.n = 1 + (k * 7919) % 5000`.execute(db);
  }
}

export async function webProfileBenchmark(): Promise<void> {
  const executable = chromiumPath();
  if (typeof executable !== 'string') {
    console.log(`web-profile: skipped, ${executable.missing}`);
    return;
  }
  // The page under test is the built app (npm start's); build it when a source is newer.
  const build = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the web app failed');
  const plays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  // The current year, so the default period (the last 30 days) has plays to count.
  const year = new Date().getUTCFullYear();
  console.log(`web profile: /u/heavy with ${plays} plays in ${year}, ${runs} first visits each, Chromium signed out`);
  const browser = await launch(executable);
  try {
    for (const backend of benchBackends()) {
      const app = await startTestApp(backend);
      try {
        const { heavy } = await seedRealistic(app.ctx.db, { heavy: [{ handle: 'heavy', plays, year }] });
        const phase = async () => {
          await visit(browser, `${app.apiUrl}/u/heavy`);
          const results: Run[] = [];
          for (let i = 0; i < runs; i++) results.push(await visit(browser, `${app.apiUrl}/u/heavy`));
          return results;
        };
        const queued = await phase();
        await rebuildRollups(app.ctx.db);
        const results = await phase();
        await importPlays(app.ctx.db, heavy.heavy!.id, year);
        const imported = await phase();
        // As the server's fold job takes them: the fold, then (past 20k changes) the rollups vacuumed.
        await statsFoldJob(app.ctx.db).run(new AbortController().signal);
        const folded = await phase();
        const slowestOf = (phaseRuns: Run[]) => median(phaseRuns.map((run) => run.slowest));
        const steady = slowestOf(results);
        const against = (label: string, phaseRuns: Run[]) => {
          const ratios = phaseRuns.map((run) => run.slowest / steady);
          return `${label} ${slowestOf(phaseRuns).toFixed(0)} ms (${median(ratios).toFixed(2)}x, ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`;
        };
        console.log(
          `  ${backend.name}: slowest API call, median, against steady state's ${steady.toFixed(0)} ms: ${against('everyone queued', queued)}; ` +
            `${against('just imported', imported)}; ${against('folded', folded)}`,
        );
        const ready = median(results.map((run) => run.ready));
        const slowest = median(results.map((run) => run.slowest));
        const names = [...new Set(results.map((run) => run.slowestName))].join(', ');
        const at = (pick: (run: Run) => number) => median(results.map(pick)).toFixed(0);
        const ratios = results.map((run) => run.ready / run.slowest);
        console.log(
          `  ${backend.name}: ready ${ready.toFixed(0)} ms after navigation start; slowest API call ${slowest.toFixed(0)} ms (${names}; ${results[0]!.calls} calls, ` +
            `the first started at ${at((run) => run.firstStart)} ms, the last answered at ${at((run) => run.lastEnd)} ms); ` +
            `ready / slowest call: median ${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`,
        );
      } finally {
        await app.close();
      }
    }
  } finally {
    await browser.close();
  }
}
