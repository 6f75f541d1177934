import { sql } from 'kysely';
import { loadConfig } from '../src/toolkit/config.ts';
import { deriveKeys } from '../src/core/auth/index.ts';
import { ingestListens } from '../src/core/scrobbling/index.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';
import { Metrics } from '../src/core/ops/metrics.ts';

/**
 * One acknowledged listen (catalog match, duplicate check, insert, commit): what every
 * scrobbler client waits for, against a raw single-row INSERT committing the same scrobble.
 * On PGlite on disk both pay for the commit reaching stable storage.
 */
export async function singleListenBenchmark(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 101);
  console.log(`single listen: one listen per transaction, median of ${runs} runs`);
  for await (const target of benchTargets({ durable: true })) {
    try {
      const userId = (await seedRealistic(target.db)).users[0]!.id;
      const track = await target.db.selectFrom('tracks').select(['id', 'artist', 'title']).orderBy('title').executeTakeFirstOrThrow();
      const ctx = { config: loadConfig({}), db: target.db, keys: deriveKeys('bench-secret-'.padEnd(48, 'x')), metrics: new Metrics(target.db) };
      let second = Date.UTC(2010, 0, 1) / 1000;
      const viaIngest = () => ingestListens(ctx, userId, [{ artist: track.artist, title: track.title, listenedAt: new Date(++second * 1000) }], 'api');
      const viaRawInsert = () =>
        sql`insert into scrobbles (user_id, track_id, listened_at, source) values (${userId}, ${track.id}, to_timestamp(${++second}), 'raw')`.execute(
          target.db,
        );
      await compare(`${target.name} ingestListens`, viaIngest, 'raw INSERT', viaRawInsert, runs);
    } finally {
      await target.close();
    }
  }
}
