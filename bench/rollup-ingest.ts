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

const TRIGGERS = ['scrobbles_stats_inserted', 'scrobbles_stats_deleted', 'scrobbles_stats_updated'];

/**
 * The write path's three ways: `counted`, the triggers as they are (queue, per-user count and
 * span, migrations 0020 and 0031); `queue`, the queue alone, as migration 0012 had it (bench_queue_only, below);
 * `off`, no trigger, as before the rollups.
 */
type Mode = 'counted' | 'queue' | 'off';
const MODES: Mode[] = ['counted', 'queue', 'off'];

/** Migration 0012's insert trigger, the queue without its per-user count, to measure what the count costs. */
async function createQueueOnlyTrigger(db: Database): Promise<void> {
  await sql`create or replace function bench_queue_only() returns trigger language plpgsql as $$
    begin
      insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, 1 from new_rows;
      return null;
    end $$`.execute(db);
  await sql`create trigger bench_queue_only after insert on scrobbles referencing new table as new_rows
    for each statement execute function bench_queue_only()`.execute(db);
}

async function useMode(db: Database, mode: Mode): Promise<void> {
  const set = async (trigger: string, on: boolean) => {
    await sql`alter table scrobbles ${sql.raw(on ? 'enable' : 'disable')} trigger ${sql.id(trigger)}`.execute(db);
  };
  for (const trigger of TRIGGERS) await set(trigger, mode === 'counted');
  await set('bench_queue_only', mode === 'queue');
}

/** Median times of `work` in each mode, alternating run by run; the toggling itself is not timed. */
async function eachMode(db: Database, label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  const times: Record<Mode, number[]> = { counted: [], queue: [], off: [] };
  for (let run = 0; run <= runs; run++) {
    for (const mode of MODES) {
      await useMode(db, mode);
      const start = performance.now();
      await work();
      if (run > 0) times[mode].push(performance.now() - start);
    }
  }
  await useMode(db, 'counted');
  const [counted, queue, off] = MODES.map((mode) => median(times[mode]));
  console.log(
    `  ${label}: queue and count ${counted!.toFixed(2)} ms | queue alone ${queue!.toFixed(2)} ms | neither ${off!.toFixed(2)} ms | ` +
      `throughput ${((100 * off!) / counted!).toFixed(1)}% of before the rollups, ${((100 * queue!) / counted!).toFixed(1)}% of the queue alone`,
  );
}

/**
 * What the rollups cost the write path: one listen per commit and 500-listen import batches,
 * with the statement triggers that queue plays and count them per user, the queue alone, and
 * neither, in one interleaved run; then the background fold's rate over what those runs queued
 * (the queue-only runs' rows counted first, as the triggers would have).
 */
export async function rollupIngestBenchmark(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 41);
  console.log(`rollup ingest: the write path with the rollups' queue and its per-user count, the queue alone, and neither, median of ${runs} runs each`);
  const config = loadConfig({});
  for await (const target of benchTargets({ durable: true })) {
    try {
      const { users } = await seedRealistic(target.db);
      await rebuildRollups(target.db);
      await createQueueOnlyTrigger(target.db);
      const tracks = await target.db.selectFrom('tracks').select(['artist', 'title']).orderBy('title').limit(2000).execute();
      const ctx = { config, db: target.db, keys: deriveKeys('bench-secret-'.padEnd(48, 'x')), metrics: new Metrics(target.db) };
      let second = Date.UTC(2010, 0, 1) / 1000;
      const listen = (i: number) => ({
        artist: tracks[i % tracks.length]!.artist,
        title: tracks[i % tracks.length]!.title,
        listenedAt: new Date(++second * 1000),
      });
      await eachMode(target.db, `${target.name} single listen`, runs, () => ingestListens(ctx, users[0]!.id, [listen(second)], 'api'));
      const fingerprint = randomBytes(32).toString('hex');
      let from = 0;
      await eachMode(target.db, `${target.name} import batch of 500`, Math.ceil(runs / 4), async () => {
        const listens = Array.from({ length: 500 }, (_, i) => {
          const { artist, title, listenedAt } = listen(i);
          return { artist, title, listenedAt: listenedAt.toISOString(), submitted: { artist, title } };
        });
        await importBatch(target.db, config, users[1]!.id, { fingerprint, format: 'listenbrainz', from, records: 500, listens, complete: false });
        from += 500;
      });
      await sql`truncate stats_queue_users`.execute(target.db);
      await sql`insert into stats_queue_users (user_id, queued, first_at, last_at)
        select user_id, count(*), min(listened_at), max(listened_at) from stats_queue group by 1`.execute(target.db);
      const started = performance.now();
      const folded = await foldAll(target.db);
      const seconds = (performance.now() - started) / 1000;
      console.log(`  ${target.name} fold: ${folded} queued plays in ${seconds.toFixed(2)} s (${Math.round(folded / seconds)} plays/s)`);
    } finally {
      await target.close();
    }
  }
}
