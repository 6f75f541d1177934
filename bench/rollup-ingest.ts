import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { deriveKeys } from '../src/core/auth/index.ts';
import { loadConfig } from '../src/toolkit/config.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { importBatch } from '../src/core/scrobbling/imports/index.ts';
import { ingestListens } from '../src/core/scrobbling/index.ts';
import { foldAll, rebuildRollups } from '../src/core/stats/index.ts';
import { benchTargets, median } from './harness.ts';
import { seedRealistic } from './seed.ts';
import { Metrics } from '../src/core/ops/metrics.ts';

/** Turns the triggers that queue plays for the rollups on or off (as before the rollups existed). */
async function queueTriggers(db: Database, on: boolean): Promise<void> {
  for (const trigger of ['scrobbles_stats_inserted', 'scrobbles_stats_deleted', 'scrobbles_stats_updated']) {
    await sql`alter table scrobbles ${sql.raw(on ? 'enable' : 'disable')} trigger ${sql.id(trigger)}`.execute(db);
  }
}

/** Median times of `work` with the queue triggers on and off, alternating run by run; the toggling itself is not timed. */
async function withAndWithout(db: Database, label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  const times = { on: [] as number[], off: [] as number[] };
  for (let run = 0; run <= runs; run++) {
    for (const on of [true, false]) {
      await queueTriggers(db, on);
      const start = performance.now();
      await work();
      if (run > 0) times[on ? 'on' : 'off'].push(performance.now() - start);
    }
  }
  await queueTriggers(db, true);
  const [on, off] = [median(times.on), median(times.off)];
  console.log(`  ${label}: with rollups ${on.toFixed(2)} ms | without ${off.toFixed(2)} ms | throughput ${((100 * off) / on).toFixed(1)}% of before`);
}

/**
 * What the rollups cost the write path: one listen per commit and 500-listen import batches,
 * with the statement triggers that queue plays on and off in one interleaved run; then the
 * background fold's rate over what those runs queued.
 */
export async function rollupIngestBenchmark(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 41);
  console.log(`rollup ingest: the write path with and without the rollups' queue, median of ${runs} runs each`);
  const config = loadConfig({});
  for await (const target of benchTargets({ durable: true })) {
    try {
      const { users } = await seedRealistic(target.db);
      await rebuildRollups(target.db);
      const tracks = await target.db.selectFrom('tracks').select(['artist', 'title']).orderBy('title').limit(2000).execute();
      const ctx = { config, db: target.db, keys: deriveKeys('bench-secret-'.padEnd(48, 'x')), metrics: new Metrics(target.db) };
      let second = Date.UTC(2010, 0, 1) / 1000;
      const listen = (i: number) => ({
        artist: tracks[i % tracks.length]!.artist,
        title: tracks[i % tracks.length]!.title,
        listenedAt: new Date(++second * 1000),
      });
      await withAndWithout(target.db, `${target.name} single listen`, runs, () => ingestListens(ctx, users[0]!.id, [listen(second)], 'api'));
      const fingerprint = randomBytes(32).toString('hex');
      let from = 0;
      await withAndWithout(target.db, `${target.name} import batch of 500`, Math.ceil(runs / 4), async () => {
        const listens = Array.from({ length: 500 }, (_, i) => {
          const { artist, title, listenedAt } = listen(i);
          return { artist, title, listenedAt: listenedAt.toISOString(), submitted: { artist, title } };
        });
        await importBatch(target.db, config, users[1]!.id, { fingerprint, format: 'listenbrainz', from, records: 500, listens, complete: false });
        from += 500;
      });
      const started = performance.now();
      const folded = await foldAll(target.db);
      const seconds = (performance.now() - started) / 1000;
      console.log(`  ${target.name} fold: ${folded} queued plays in ${seconds.toFixed(2)} s (${Math.round(folded / seconds)} plays/s)`);
    } finally {
      await target.close();
    }
  }
}
