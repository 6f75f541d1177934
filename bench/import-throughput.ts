import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../src/toolkit/config.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { importBatch, type ImportListen } from '../src/core/scrobbling/imports/index.ts';
import { benchTargets, compare, median } from './harness.ts';
import { seedRealistic } from './seed.ts';

const BATCH = 500;

function timedInto(times: number[], fn: () => Promise<void>): () => Promise<void> {
  return async () => {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  };
}

const INSERT_CHUNK = 1000;

/** `listens` through the import path as runImport sends them: batches of 500, one in flight while the next is sent, answers taken in order. */
export async function importListens(db: Database, config: Config, userId: string, listens: ImportListen[]): Promise<void> {
  const fingerprint = randomBytes(32).toString('hex');
  let inFlight: Promise<unknown> | undefined;
  for (let from = 0; from < listens.length; from += BATCH) {
    const batch = listens.slice(from, from + BATCH);
    const front = inFlight;
    inFlight = importBatch(db, config, userId, {
      fingerprint,
      format: 'listenbrainz',
      from,
      records: batch.length,
      listens: batch,
      complete: from + BATCH >= listens.length,
    });
    await front;
  }
  await inFlight;
}

async function createUser(db: Database): Promise<string> {
  const tag = randomBytes(6).toString('hex');
  return (
    await db
      .insertInto('users')
      .values({ did: `did:plc:import${tag}`, handle: `import${tag}` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/**
 * Listens/s of the import path (importBatch: catalog matching, duplicate detection and
 * checkpointing in 500-listen batches, one in flight ahead as runImport sends them) into a
 * realistically seeded table, against a raw multi-row INSERT of the same scrobbles with the track
 * ids already known.
 */
export async function importThroughputBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_IMPORT_LISTENS ?? 20_000);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  console.log(`import throughput: ${count} listens over the known tracks of a realistic seed, batches of ${BATCH}, median of ${runs} runs`);
  const config = loadConfig({});
  for await (const target of benchTargets({ durable: true })) {
    try {
      await seedRealistic(target.db);
      const tracks = await target.db.selectFrom('tracks').select(['id', 'artist', 'title']).orderBy('title').execute();
      const start = Date.UTC(2020, 0, 1);
      const rows = Array.from({ length: count }, (_, i) => ({ track: tracks[i % tracks.length]!, listenedAt: new Date(start + i * 60_000) }));
      const listens: ImportListen[] = rows.map(({ track, listenedAt }) => ({
        artist: track.artist,
        title: track.title,
        listenedAt: listenedAt.toISOString(),
        submitted: { artist: track.artist, title: track.title },
      }));
      const viaImport = async () => importListens(target.db, config, await createUser(target.db), listens);
      const viaRawInsert = async () => {
        const userId = await createUser(target.db);
        await target.db.transaction().execute(async (tx) => {
          for (let i = 0; i < count; i += INSERT_CHUNK) {
            const values = rows
              .slice(i, i + INSERT_CHUNK)
              .map(
                ({ track, listenedAt }) =>
                  sql`(${userId}, ${track.id}, ${listenedAt}, ${JSON.stringify({ artist: track.artist, title: track.title })}, 'import:raw')`,
              );
            await sql`insert into scrobbles (user_id, track_id, listened_at, submitted, source) values ${sql.join(values)}`.execute(tx);
          }
        });
      };
      const importTimes: number[] = [];
      const rawTimes: number[] = [];
      await compare(`${target.name} import path`, timedInto(importTimes, viaImport), 'raw multi-row INSERT', timedInto(rawTimes, viaRawInsert), runs);
      // The first of each is compare's warm-up; the rest pair up run by run.
      const rate = (time: number) => Math.round(count / (time / 1000));
      const [imports, raws] = [importTimes.slice(1), rawTimes.slice(1)];
      const shares = imports.map((time, i) => raws[i]! / time);
      const range = (values: number[], show: (value: number) => string) => `${show(Math.min(...values))}-${show(Math.max(...values))}`;
      console.log(
        `  ${target.name} listens/s: import path ${rate(median(imports))} (${range(imports.map(rate), String)}), raw INSERT ${rate(median(raws))} (${range(raws.map(rate), String)}); ` +
          `import / raw per run: median ${(100 * median(shares)).toFixed(0)}% (${range(shares, (share) => `${(100 * share).toFixed(0)}%`)})`,
      );
    } finally {
      await target.close();
    }
  }
}
