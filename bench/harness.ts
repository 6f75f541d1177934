import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Database } from '../src/toolkit/db/index.ts';
import { testBackends, type TestBackend } from '../src/toolkit/db/testing.ts';

export interface BenchTarget {
  name: string;
  db: Database;
  close(): Promise<void>;
}

/** A fresh PGlite database in a temporary directory: writes pay for reaching the disk, as `npm start`'s do. */
async function durablePglite(): Promise<BenchTarget> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-bench-'));
  const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'db') });
  return {
    name: 'pglite-disk',
    db,
    async close() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The backends to measure on; BENCH_BACKENDS=postgres (or pglite) picks one: seeding millions of plays takes minutes. */
export function benchBackends(): TestBackend[] {
  process.env.TEST_DATABASE_URL ||= process.env.DATABASE_URL ?? '';
  const only = process.env.BENCH_BACKENDS?.split(',');
  return testBackends().filter((candidate) => !only || only.includes(candidate.name));
}

/** The servers a benchmark under load runs on, named: benchBackends, and with `durable` PGlite on disk after PGlite. */
export function benchServers(options: { durable?: boolean } = {}): { label: string; backend: TestBackend }[] {
  const onDisk: TestBackend = { name: 'pglite', open: durablePglite };
  return benchBackends().flatMap((backend) => [
    { label: backend.name, backend },
    ...(backend.name === 'pglite' && options.durable ? [{ label: 'pglite-disk', backend: onDisk }] : []),
  ]);
}

/**
 * Fresh databases to measure on: PGlite in memory, plus the PostgreSQL server named by
 * TEST_DATABASE_URL or DATABASE_URL; `durable` adds PGlite on disk, for benchmarks of writes.
 */
export async function* benchTargets(options: { durable?: boolean } = {}): AsyncGenerator<BenchTarget> {
  for (const backend of benchBackends()) {
    const { db, close } = await backend.open();
    yield { name: backend.name, db, close };
    if (backend.name === 'pglite' && options.durable) yield await durablePglite();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The value below which `p` percent of `values` fall (p50, p99, …). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Median wall times of two ways of doing the same work, run alternately so
 * caches and background load weigh on both alike. Prints and returns the ratio.
 */
export async function compare(
  label: string,
  measured: () => Promise<unknown>,
  baselineLabel: string,
  baseline: () => Promise<unknown>,
  runs = 21,
): Promise<number> {
  await measured();
  await baseline();
  const measuredTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    measuredTimes.push(await timed(measured));
    baselineTimes.push(await timed(baseline));
  }
  const measuredMs = median(measuredTimes);
  const baselineMs = median(baselineTimes);
  const ratio = measuredMs / baselineMs;
  console.log(`  ${label}: ${measuredMs.toFixed(2)} ms  | ${baselineLabel}: ${baselineMs.toFixed(2)} ms  | ratio ${ratio.toFixed(2)}x`);
  return ratio;
}
