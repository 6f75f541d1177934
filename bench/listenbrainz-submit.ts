import { sql } from 'kysely';
import pg from 'pg';
import { createApiKey } from '../src/core/auth/api-keys.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { LOAD, onEachServer } from './hot-reads.ts';
import { closedLoop, compareUnderLoad } from './http-load.ts';
import { seedRealistic } from './seed.ts';

interface Play {
  userId: string;
  trackId: string;
  second: number;
  submitted: string;
}

/**
 * A raw single-row INSERT, one transaction each, able to run `connections` at once: on PostgreSQL
 * over a pool of its own that large, on the same schema; PGlite has one connection whatever the pool.
 */
async function rawInserter(db: Database, backend: string, connections: number): Promise<{ insert(play: Play): Promise<unknown>; close(): Promise<void> }> {
  if (backend !== 'postgres') {
    return {
      insert: (play) =>
        sql`insert into scrobbles (user_id, track_id, listened_at, submitted, source)
          values (${play.userId}, ${play.trackId}, to_timestamp(${play.second}), ${play.submitted}, 'raw')`.execute(db),
      close: async () => {},
    };
  }
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
  const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: connections, options: `-c search_path=${schema},public` });
  return {
    insert: (play) =>
      pool.query(`insert into scrobbles (user_id, track_id, listened_at, submitted, source) values ($1, $2, to_timestamp($3), $4, 'raw')`, [
        play.userId,
        play.trackId,
        play.second,
        play.submitted,
      ]),
    close: () => pool.end(),
  };
}

/**
 * ListenBrainz single submissions (POST /1/submit-listens, listen_type single, with a real API
 * key) under `connections` concurrent clients, against raw single-row INSERT transactions of
 * the same play at the same concurrency on the same database, over a realistic seed.
 */
export async function listenBrainzSubmitBenchmark(): Promise<void> {
  console.log(`listenbrainz submit: single listens, ${LOAD.connections} connections, ${LOAD.rounds} x ${LOAD.seconds} s each way`);
  await onEachServer(async (app, generator, backend) => {
    const seeded = await seedRealistic(app.ctx.db);
    const user = seeded.users[0]!;
    const { key } = await createApiKey(app.ctx.db, app.ctx.keys, { userId: user.id, accessTokenId: undefined }, { name: 'bench', description: '' });
    // A song the catalog knows, as most listens are: matching finds it, nothing new is created.
    const track = await app.ctx.db.selectFrom('tracks').select(['id', 'artist', 'title', 'album']).orderBy('title').executeTakeFirstOrThrow();
    const metadata = { artist_name: track.artist, track_name: track.title, release_name: track.album };
    const body = JSON.stringify({ listen_type: 'single', payload: [{ listened_at: '{{n}}', track_metadata: metadata }] }).replace('"{{n}}"', '{{n}}');
    // Every listen is new: one second apart, counting up from some hundred days back (raw ones from further back).
    const firstSecond = Math.floor(Date.now() / 1000) - 300 * 24 * 3600;
    let rawSecond = firstSecond - 10_000_000;
    const submitted = JSON.stringify({ artist: track.artist, title: track.title, album: track.album });
    const raw = await rawInserter(app.ctx.db, backend, LOAD.connections);
    try {
      const rawInserts = () =>
        closedLoop(LOAD.connections, LOAD.seconds, async () => {
          await raw.insert({ userId: user.id, trackId: track.id, second: ++rawSecond, submitted });
          return 200;
        });
      const headers = { authorization: `Token ${key}`, 'content-type': 'application/json' };
      const submit = { url: `${app.scrobblerUrl}/1/submit-listens`, method: 'POST' as const, headers, body, firstN: firstSecond };
      await compareUnderLoad(generator, `${backend} POST /1/submit-listens`, submit, 'raw single-row INSERT', rawInserts, LOAD);
    } finally {
      await raw.close();
    }
  });
}
