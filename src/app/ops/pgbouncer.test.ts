/**
 * Earshot through PgBouncer in transaction mode, as large deployments pool PostgreSQL: each
 * transaction may run on another server connection, and the pooler refuses startup parameters it
 * does not know. Its own PgBouncer process, in front of a database of its own (a test schema's
 * `options=-c search_path=…` cannot pass a pooler).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../../toolkit/db/database.ts';
import { migrationFiles } from '../../toolkit/db/migrate.ts';
import { startPgbouncer, pgbouncerMissing, type Pgbouncer } from '../../toolkit/db/pgbouncer-testing.ts';
import { NO_JIT, withSettings } from '../../toolkit/db/statement-settings.ts';
import { foldBatch } from '../../core/stats/rollups/fold.ts';
import { startTestApp, type TestApp } from '../testing.ts';
import { readUntilKept } from '../../adapters/http/response-cache-testing.ts';

const baseUrl = process.env.TEST_DATABASE_URL;
if (!baseUrl && process.env.CI === 'true') throw new Error('TEST_DATABASE_URL is not set: CI runs the PgBouncer test on PostgreSQL');
const missing = baseUrl ? pgbouncerMissing() : 'needs TEST_DATABASE_URL';

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A listen of song `n` of client `who`, `n` minutes into 2024. */
function listen(who: string, n: number) {
  return { listened_at: 1_704_067_200 + n * 60, track_metadata: { artist_name: `${who} artist ${n % 4}`, track_name: `${who} song ${n % 30}` } };
}

function importListen(n: number) {
  return {
    artist: `Imported ${n % 3}`,
    title: `Imported song ${n % 40}`,
    listenedAt: new Date(Date.UTC(2024, 5, 1) + n * 60_000).toISOString(),
    submitted: { n },
  };
}

describe('through PgBouncer in transaction mode', { skip: missing }, () => {
  const database = `earshot_pgb_${process.pid}_${randomBytes(3).toString('hex')}`;
  let bouncer: Pgbouncer;
  const opened: Database[] = [];
  let app: TestApp;

  const open = async () => {
    const db = await openDatabase({ kind: 'postgres', url: bouncer.url(database) });
    opened.push(db);
    return db;
  };

  before(async () => {
    await withAdmin((admin) => admin.query(`create database ${database}`));
    bouncer = await startPgbouncer(baseUrl!, 'transaction');
  });

  after(async () => {
    await app?.close();
    await Promise.all(opened.map((db) => db.destroy()));
    await bouncer?.stop();
    await withAdmin((admin) => admin.query(`drop database if exists ${database} with (force)`));
  });

  test('three pools migrating the empty database at once apply each migration once (a lock per transaction)', async () => {
    await Promise.all([open(), open(), open()]);
    const { rows } = await sql<{ version: string }>`select version from schema_migrations order by version`.execute(opened[0]!);
    assert.deepEqual(
      rows.map((row) => row.version),
      migrationFiles(),
    );
  });

  test("a transaction's settings hold for all of it, on whichever server connection, and never leak to another", async () => {
    const db = opened[0]!;
    const servers = new Set<number>();
    const insideAndAfter = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        if (i % 2 === 1) return (await sql<{ jit: string }>`select current_setting('jit') as jit`.execute(db)).rows[0]!.jit;
        return withSettings(db, { ...NO_JIT, enable_nestloop: 'off' }, async (tx) => {
          await sql`select pg_sleep(0.01)`.execute(tx);
          const { rows } = await sql<{ jit: string; nestloop: string; pid: number }>`
            select current_setting('jit') as jit, current_setting('enable_nestloop') as nestloop, pg_backend_pid() as pid`.execute(tx);
          servers.add(rows[0]!.pid);
          return `${rows[0]!.jit}/${rows[0]!.nestloop}`;
        });
      }),
    );
    assert.deepEqual(new Set(insideAndAfter.filter((_, i) => i % 2 === 0)), new Set(['off/off']));
    assert.ok(servers.size > 1, 'the transactions ran on more than one server connection');
    // The server's default: nothing set in a transaction stayed on the connection it ran on.
    const serverDefault = await withAdmin(async (admin) => (await admin.query<{ jit: string }>(`select current_setting('jit') as jit`)).rows[0]!.jit);
    assert.deepEqual(new Set(insideAndAfter.filter((_, i) => i % 2 === 1)), new Set([serverDefault]));
  });

  describe('the app', () => {
    const users: { did: string; token: string; key: string }[] = [];

    before(async () => {
      const db = await open();
      app = await startTestApp({ name: 'postgres', open: async () => ({ db, close: async () => {} }) });
      for (const handle of ['ada', 'bo', 'cy']) {
        const { did, token } = await app.signup(handle);
        const created = await app.procedure('app.svc.apikey.createApikey', { name: 'pgbouncer' }, token);
        users.push({ did, token, key: created.body.key });
      }
    });

    test('ListenBrainz submissions from several clients at once store every play once', async () => {
      const answers = await Promise.all(
        users.flatMap(({ key }, u) =>
          Array.from({ length: 4 }, (_, batch) =>
            fetch(`${app.scrobblerUrl}/1/submit-listens`, {
              method: 'POST',
              headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ listen_type: 'import', payload: Array.from({ length: 25 }, (_, i) => listen(`u${u}`, batch * 25 + i)) }),
            }).then((response) => response.status),
          ),
        ),
      );
      assert.deepEqual(new Set(answers), new Set([200]));
      assert.equal(await plays(), 300);
    });

    test('imports from several clients at once, each in batches, store exactly the plays sent', async () => {
      const results = await Promise.all(
        users.map(async ({ token }) => {
          const fingerprint = randomBytes(32).toString('hex');
          let stored = 0;
          for (let from = 0; from < 120; from += 40) {
            const listens = Array.from({ length: 40 }, (_, i) => importListen(from + i));
            const answer = await app.procedure(
              'app.svc.scrobble.importListens',
              { fingerprint, format: 'listenbrainz', from, records: 40, listens, complete: from === 80 },
              token,
            );
            assert.equal(answer.status, 200, JSON.stringify(answer.body));
            stored = answer.body.status.stored;
          }
          return stored;
        }),
      );
      assert.deepEqual(results, [120, 120, 120]);
      assert.equal(await plays(), 660);
    });

    test('two folds at once count every play once, and Wrapped (JIT off in its transaction) reads them', async () => {
      const second = await open();
      const drain = async (db: Database) => {
        while ((await foldBatch(db)) > 0);
      };
      await Promise.all([drain(app.ctx.db), drain(second)]);
      const queued = await app.ctx.db
        .selectFrom('stats_queue')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(queued.n), 0);
      for (const { did } of users) {
        const wrapped = await app.query('app.svc.stats.getWrapped', { did, year: 2024, tz: 'UTC' });
        assert.equal(wrapped.status, 200, JSON.stringify(wrapped.body));
        assert.equal(wrapped.body.totalScrobbles, 220);
        const profile = await app.query('app.svc.actor.getProfile', { did });
        assert.equal(profile.body.scrobblesCount, 220);
      }
    });

    test('a kept feed page shows the next play submitted through the pooler on the next read', async () => {
      const { did, key } = users[0]!;
      const params = { feed: `earshot:feed:user:${did}`, limit: '1' };
      const newest = async () => JSON.parse(await readUntilKept(app, 'app.svc.feed.getFeed', params)).scrobbles.map((s: any) => s.title);
      assert.deepEqual(await newest(), ['Imported song 39']);
      const answer = await fetch(`${app.scrobblerUrl}/1/submit-listens`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          listen_type: 'single',
          payload: [{ listened_at: 1_735_689_600, track_metadata: { artist_name: 'Pooled', track_name: 'Newest' } }],
        }),
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(await newest(), ['Newest']);
    });
  });

  async function plays(): Promise<number> {
    const row = await opened[0]!
      .selectFrom('scrobbles')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
});
