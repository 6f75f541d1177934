import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/toolkit/config.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { importBatch, type ImportListen } from '../src/core/scrobbling/imports/index.ts';
import { scrobblePage } from '../src/core/scrobbling/feed/page.ts';
import { benchTargets, percentile } from './harness.ts';
import { seedRealistic } from './seed.ts';

async function createUser(db: Database): Promise<string> {
  const tag = randomBytes(6).toString('hex');
  return (
    await db
      .insertInto('users')
      .values({ did: `did:plc:hol${tag}`, handle: `hol${tag}` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** A batch whose every listen names an artist, album and title the catalog has never seen. */
function newArtistListens(count: number, tag: string): ImportListen[] {
  const start = Date.UTC(2021, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    artist: `Newcomer ${tag} ${i}`,
    album: `Debut ${tag} ${i}`,
    title: `First Song ${tag} ${i}`,
    listenedAt: new Date(start + i * 60_000).toISOString(),
    submitted: { i },
  }));
}

/** Latencies of `call` repeated back to back until `until` settles (or `count` times without it). */
async function latencies(call: () => Promise<unknown>, until: Promise<unknown> | null, count: number): Promise<number[]> {
  let done = false;
  void until?.finally(() => (done = true));
  const times: number[] = [];
  while (until ? !done : times.length < count) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return times;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * Head-of-line blocking: another user's feed page, timed while one import
 * batch of new artists runs, against the same page on an idle database. On
 * PGlite every statement queues for the one connection, so the ratio shows
 * how long the import holds it at a stretch; runs alternate idle and loaded.
 */
export async function importHeadOfLineBenchmark(): Promise<void> {
  const batchSize = Number(process.env.BENCH_HOL_LISTENS ?? 1000);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  console.log(`import head-of-line: another user's feed page while a ${batchSize}-listen batch of new artists imports, ${runs} runs`);
  const config = loadConfig({});
  for await (const target of benchTargets()) {
    try {
      const reader = (await seedRealistic(target.db)).users[0]!.id;
      const importer = await createUser(target.db);
      const feed = () => scrobblePage(target.db, null, { kind: 'user', userId: reader }, { limit: 50 });
      const idle: number[] = [];
      const loaded: number[] = [];
      const imports: number[] = [];
      await latencies(feed, null, 20);
      for (let run = 0; run < runs; run++) {
        idle.push(...(await latencies(feed, null, 50)));
        const listens = newArtistListens(batchSize, `${run}-${randomBytes(3).toString('hex')}`);
        const start = performance.now();
        const batch = { fingerprint: randomBytes(32).toString('hex'), format: 'listenbrainz' as const, from: 0, records: batchSize, listens, complete: true };
        const importing = importBatch(target.db, config, importer, batch).then(() => imports.push(performance.now() - start));
        loaded.push(...(await latencies(feed, importing, 0)));
        await importing;
      }
      const [idle50, idle99, loaded50, loaded99] = [percentile(idle, 50), percentile(idle, 99), percentile(loaded, 50), percentile(loaded, 99)];
      console.log(
        `  ${target.name} feed p50: ${ms(loaded50)} importing | ${ms(idle50)} idle | ratio ${(loaded50 / idle50).toFixed(2)}x;` +
          ` p99: ${ms(loaded99)} | ${ms(idle99)} | ratio ${(loaded99 / idle99).toFixed(2)}x; worst ${ms(Math.max(...loaded))};` +
          ` import batch median ${ms(percentile(imports, 50))}`,
      );
    } finally {
      await target.close();
    }
  }
}
