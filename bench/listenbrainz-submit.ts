import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createApiKey } from '../src/core/auth/api-keys.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { LOAD, onEachServer } from './hot-reads.ts';
import { closedLoop, compareUnderLoad, type LoadResult } from './http-load.ts';
import { seedRealistic } from './seed.ts';

const run = promisify(execFile);

interface Play {
  userId: string;
  trackId: string;
  second: number;
  submitted: string;
}

/**
 * The raw baseline: single-row INSERT transactions of the play, `connections` at once. On
 * PostgreSQL that is pgbench (Debian's postgresql-contrib) with as many clients on the same
 * schema: the server's own ceiling, no client library in the way. PGlite has one connection
 * whatever the pool, so there it is the INSERT from this process.
 */
async function rawInserts(db: Database, backend: string, play: Play): Promise<() => Promise<LoadResult>> {
  if (backend === 'postgres') return pgbenchInserts(db, play);
  let second = play.second;
  return () =>
    closedLoop(LOAD.connections, LOAD.seconds, async () => {
      await sql`insert into scrobbles (user_id, track_id, listened_at, submitted, source)
        values (${play.userId}, ${play.trackId}, to_timestamp(${++second}), ${play.submitted}, 'raw')`.execute(db);
      return 200;
    });
}

async function pgbenchInserts(db: Database, play: Play): Promise<() => Promise<LoadResult>> {
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.searchParams.set('options', `-csearch_path=${schema},public`);
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  // A random microsecond in some thirty years before `second`: no two inserts collide.
  const script = [
    '\\set us random(1, 1000000000000000)',
    `insert into scrobbles (user_id, track_id, listened_at, submitted, source) values (${quote(play.userId)}, ${quote(play.trackId)}, ` +
      `to_timestamp(${play.second}) - :us * interval '1 microsecond', ${quote(play.submitted)}, 'raw');`,
  ].join('\n');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-pgbench-')), 'insert.sql');
  fs.writeFileSync(file, `${script}\n`);
  const args = ['-n', '-c', String(LOAD.connections), '-j', '2', '-T', String(LOAD.seconds), '-f', file, url.toString()];
  return async (): Promise<LoadResult> => {
    const { stdout } = await run('pgbench', args);
    const field = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? Number.NaN);
    const failed = field(/number of failed transactions: (\d+)/);
    // pgbench reports a mean latency only; it stands in p50's place, and p99 is unknown.
    return {
      requests: field(/number of transactions actually processed: (\d+)/),
      perSecond: field(/tps = ([\d.]+)/),
      p50: field(/latency average = ([\d.]+) ms/),
      p99: Number.NaN,
      failures: failed > 0 ? { 500: failed } : ({} as Record<number, number>),
    };
  };
}

/**
 * ListenBrainz single submissions (POST /1/submit-listens, listen_type single, with a real API
 * key) under `connections` concurrent clients, against raw single-row INSERT transactions of
 * the same play at the same concurrency on the same database, over a realistic seed; PGlite also
 * on disk, where each commit waits for an fsync.
 */
export async function listenBrainzSubmitBenchmark(): Promise<void> {
  console.log(`listenbrainz submit: single listens, ${LOAD.connections} connections, ${LOAD.rounds} x ${LOAD.seconds} s each way`);
  await onEachServer(
    async (app, generator, backend) => {
      const seeded = await seedRealistic(app.ctx.db);
      const user = seeded.users[0]!;
      const { key } = await createApiKey(app.ctx.db, app.ctx.keys, { userId: user.id, accessTokenId: undefined }, { name: 'bench', description: '' });
      // A song the catalog knows, as most listens are: matching finds it, nothing new is created.
      const track = await app.ctx.db.selectFrom('tracks').select(['id', 'artist', 'title', 'album']).orderBy('title').executeTakeFirstOrThrow();
      const metadata = { artist_name: track.artist, track_name: track.title, release_name: track.album };
      const body = JSON.stringify({ listen_type: 'single', payload: [{ listened_at: '{{n}}', track_metadata: metadata }] }).replace('"{{n}}"', '{{n}}');
      // Every listen is new: one second apart, counting up from some hundred days back (raw ones from further back).
      const firstSecond = Math.floor(Date.now() / 1000) - 300 * 24 * 3600;
      const submitted = JSON.stringify({ artist: track.artist, title: track.title, album: track.album });
      const raw = await rawInserts(app.ctx.db, backend, { userId: user.id, trackId: track.id, second: firstSecond - 10_000_000, submitted });
      const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' };
      const submit = { url: `${app.scrobblerUrl}/1/submit-listens`, method: 'POST' as const, headers, body, firstN: firstSecond };
      const baseline = backend === 'postgres' ? `pgbench single-row INSERT, ${LOAD.connections} clients` : 'raw single-row INSERT';
      await compareUnderLoad(generator, `${backend} POST /1/submit-listens`, submit, baseline, raw, LOAD);
    },
    { durable: true },
  );
}
