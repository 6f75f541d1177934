import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Database } from '../src/toolkit/db/index.ts';
import { rebuildRollups, wrappedFor } from '../src/core/stats/index.ts';
import { statsWindow } from '../src/core/stats/window.ts';
import { wrappedFromHistory } from '../src/core/stats/wrapped-from-history.ts';
import { benchTargets, compare, percentile } from './harness.ts';
import { seedRealistic } from './seed.ts';

const YEAR = 2025;
const ZONE = 'Asia/Kolkata';

const sizes = () => (process.env.BENCH_WRAPPED_SIZES ?? '10000,100000,1000000').split(',').map(Number);

/** Builds the rollups of the seeded plays (as `earshot stats rebuild` does), then vacuums as autovacuum would. */
async function rollUpSeed(db: Database, name: string): Promise<void> {
  const started = performance.now();
  const counted = await rebuildRollups(db);
  const seconds = (performance.now() - started) / 1000;
  console.log(`  ${name} rebuild: ${counted} plays in ${seconds.toFixed(1)} s (${Math.round(counted / seconds)} plays/s)`);
  await sql`vacuum analyze`.execute(db);
}

/** p50 and p99 of `total` getWrapped calls kept `concurrency` at a time. */
async function concurrentLatencies(call: () => Promise<unknown>, concurrency: number, total: number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started++ < total) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * A calendar-year Wrapped (in a +5:30 zone) for heavy users with 10k, 100k and 1M plays in the
 * year among many other users' plays, interleaved in time: from the rollups against the single
 * statement over the raw history that served it before them. Then 32 at once.
 */
export async function wrappedBenchmark(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const heavy = sizes().map((plays) => ({ handle: `heavy${plays}`, plays, year: YEAR }));
  console.log(
    `wrapped: calendar year ${YEAR} in ${ZONE} for users with ${sizes().join(', ')} plays in it (and a quarter as many before), among other users' plays`,
  );
  for await (const target of benchTargets()) {
    try {
      const seeded = await seedRealistic(target.db, { heavy });
      await rollUpSeed(target.db, target.name);
      const medians: number[] = [];
      for (const { handle, plays } of heavy) {
        const user = seeded.heavy[handle]!;
        const window = await statsWindow(target.db, 'year', YEAR, ZONE);
        const fromRollups = () => wrappedFor(target.db, { actor: user.did, period: 'year', year: YEAR, timeZone: ZONE });
        const fromHistory = () => wrappedFromHistory(target.db, user.id, window, ZONE);
        const ratio = await compare(`${target.name} ${plays} plays: rollups`, fromRollups, 'raw history', fromHistory, runs);
        console.log(`    ${(1 / ratio).toFixed(1)}x faster`);
        const start = performance.now();
        for (let i = 0; i < 9; i++) await fromRollups();
        medians.push((performance.now() - start) / 9);
      }
      console.log(
        `  ${target.name} flatness: ${sizes()
          .map((plays, i) => `${plays}: ${medians[i]!.toFixed(1)} ms`)
          .join(', ')}; largest/smallest ${(medians.at(-1)! / medians[0]!).toFixed(2)}x`,
      );
      const busiest = seeded.heavy[heavy.at(-1)!.handle]!;
      const { p50, p99 } = await concurrentLatencies(() => wrappedFor(target.db, { actor: busiest.did, period: 'year', year: YEAR, timeZone: ZONE }), 32, 320);
      console.log(
        `  ${target.name} 32 concurrent (${heavy.at(-1)!.plays} plays): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (p99/p50 ${(p99 / p50).toFixed(2)})`,
      );
    } finally {
      await target.close();
    }
  }
}
