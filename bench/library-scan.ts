import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseFile } from 'music-metadata';
import { deriveKeys } from '../src/core/auth/index.ts';
import { loadConfig } from '../src/toolkit/config.ts';
import { isAudioFile } from '../src/core/library/tags.ts';
import { reportSummary, scanLibrary } from '../src/core/library/scan/index.ts';
import { benchTargets, compare } from './harness.ts';
import { generatedMusic, TRACKS_PER_ALBUM } from './music.ts';
import { Metrics } from '../src/core/ops/metrics.ts';

/** Files written at once while generating the folder. */
const WRITE_CONCURRENCY = 64;

/** The generated files written into a folder. */
export async function generateFolder(root: string, count: number): Promise<void> {
  const jobs = generatedMusic(count);
  for (let at = 0; at < jobs.length; at += WRITE_CONCURRENCY) {
    await Promise.all(
      jobs.slice(at, at + WRITE_CONCURRENCY).map(async ({ path, bytes }) => {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), bytes);
      }),
    );
  }
}

/** The floor of any rescan: every entry listed and every audio file stat-ed, with plain fs. */
async function walkAndStat(root: string): Promise<number> {
  const names = (await readdir(root, { recursive: true })).filter(isAudioFile);
  for (let at = 0; at < names.length; at += WRITE_CONCURRENCY) {
    await Promise.all(names.slice(at, at + WRITE_CONCURRENCY).map((name) => stat(join(root, name))));
  }
  return names.length;
}

/** The floor of a first scan: every audio file parsed by music-metadata alone, as many at once as the scan reads. */
async function parseAll(root: string): Promise<void> {
  const names = (await readdir(root, { recursive: true })).filter(isAudioFile);
  for (let at = 0; at < names.length; at += 20) {
    await Promise.all(names.slice(at, at + 20).map((name) => parseFile(join(root, name))));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

/**
 * Files/s of a first scan of a generated folder against parsing the same files with
 * music-metadata alone, and the time of a rescan with nothing changed against walking and
 * stat-ing the folder with plain fs.
 */
export async function libraryScanBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_SCAN_FILES ?? 20_000);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const root = await mkdtemp(join(tmpdir(), 'earshot-bench-music-'));
  try {
    const generated = await timed(() => generateFolder(root, count));
    console.log(`library scan: ${count} files in ${Math.ceil(count / TRACKS_PER_ALBUM)} albums (generated in ${(generated.ms / 1000).toFixed(1)} s)`);
    const parsed = await timed(() => parseAll(root));
    console.log(`  music-metadata alone: ${(parsed.ms / 1000).toFixed(2)} s, ${Math.round((count * 1000) / parsed.ms)} files/s`);
    for await (const target of benchTargets({ durable: true })) {
      try {
        const ctx = {
          config: { ...loadConfig({}), musicDir: root },
          db: target.db,
          keys: deriveKeys('bench-secret-'.padEnd(48, 'x')),
          metrics: new Metrics(target.db),
        };
        const first = await timed(() => scanLibrary(ctx));
        if (first.result.added !== count) throw new Error(`first scan added ${first.result.added} of ${count} files: ${reportSummary(first.result)}`);
        console.log(
          `  ${target.name} first scan: ${(first.ms / 1000).toFixed(2)} s, ${Math.round((count * 1000) / first.ms)} files/s` +
            `  | ratio to music-metadata alone ${(first.ms / parsed.ms).toFixed(2)}x`,
        );
        await compare(
          `${target.name} rescan, nothing changed`,
          async () => {
            const report = await scanLibrary(ctx);
            if (report.unchanged !== count) throw new Error(`rescan found changes: ${reportSummary(report)}`);
          },
          'plain fs walk + stat',
          () => walkAndStat(root),
          runs,
        );
      } finally {
        await target.close();
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
