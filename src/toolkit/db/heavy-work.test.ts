import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Database } from './database.ts';
import { heavyRead } from './heavy-read.ts';
import { asHeavyWork } from './pglite-pool.ts';
import { testBackends } from './testing.ts';

describe('embedded database queue', () => {
  let db: Database;
  let close: () => Promise<void>;
  before(async () => {
    // The embedded database (always the first backend): the queue is its own.
    ({ db, close } = await testBackends()[0]!.open());
  });
  after(() => close());

  it('a waiting interactive statement goes before heavy work queued earlier', async () => {
    const order: string[] = [];
    let finishTransaction!: () => void;
    const holding = new Promise<void>((resolve) => (finishTransaction = resolve));
    let started!: () => void;
    const inTransaction = new Promise<void>((resolve) => (started = resolve));
    const transaction = db.transaction().execute(async (tx) => {
      await sql`select 1`.execute(tx);
      started();
      await holding;
    });
    await inTransaction;
    const heavy = asHeavyWork(() => sql`select 'heavy'`.execute(db)).then(() => order.push('heavy'));
    const interactive = sql`select 'interactive'`.execute(db).then(() => order.push('interactive'));
    await new Promise((resolve) => setImmediate(resolve));
    finishTransaction();
    await Promise.all([transaction, heavy, interactive]);
    assert.deepEqual(order, ['interactive', 'heavy']);
  });

  it('heavy work taking the connection again and again still lets a request read meanwhile go first', async () => {
    // Each heavy transaction is granted as the previous one ends: without a turn of the event loop in between, a
    // request arriving meanwhile (here a setImmediate, as a socket read would be) could not run before all of them.
    const transactions = 20;
    let heavyDone = 0;
    let heavyDoneBeforeInteractive = -1;
    const heavy = asHeavyWork(async () => {
      for (let i = 0; i < transactions; i++) {
        await db.transaction().execute(async (tx) => {
          await sql`select 'heavy'`.execute(tx);
          await sql`select 'heavy'`.execute(tx);
        });
        heavyDone++;
      }
    });
    const interactive = new Promise<void>((resolve, reject) =>
      setImmediate(() =>
        sql`select 'interactive'`.execute(db).then(() => {
          heavyDoneBeforeInteractive = heavyDone;
          resolve();
        }, reject),
      ),
    );
    await Promise.all([heavy, interactive]);
    assert.ok(heavyDoneBeforeInteractive < transactions, `the interactive statement ran after all ${transactions} heavy transactions`);
    assert.ok(heavyDoneBeforeInteractive <= 1, `the interactive statement waited for ${heavyDoneBeforeInteractive} heavy transactions`);
  });
});

for (const backend of testBackends()) {
  describe(`heavy reads [${backend.name}]`, () => {
    let storage: Awaited<ReturnType<typeof backend.open>>;
    before(async () => {
      storage = await backend.open();
      await sql`create table counted (n int)`.execute(storage.db);
    });
    after(() => storage.close());

    const count = async (computations: { n: number }) => {
      computations.n++;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from counted`.execute(storage.db);
      return rows[0]!.n;
    };

    // The WAL position moves with any write to the server, and on PostgreSQL other test files write to it
    // at the same time: an attempt during which it moved proves nothing, so it is run again, a quarter
    // second later (their writes come in bursts), for up to ten seconds.
    const walPosition = async () => (await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(storage.db)).rows[0]!.lsn;

    it('identical concurrent reads share one computation, and later ones reuse it while nothing is written', async () => {
      for (let attempt = 0; attempt < 40; attempt++) {
        if (attempt > 0) await delay(250);
        const computations = { n: 0 };
        const before = await walPosition();
        const answers = await Promise.all(Array.from({ length: 4 }, () => heavyRead(storage.db, `shared ${attempt}`, () => count(computations))));
        assert.deepEqual(answers, [0, 0, 0, 0]);
        assert.equal(await heavyRead(storage.db, `shared ${attempt}`, () => count(computations)), 0);
        if ((await walPosition()) !== before) continue;
        assert.ok(computations.n <= 2, `${computations.n} computations`);
        return;
      }
      assert.fail('other writers moved the WAL during every attempt');
    });

    it('a write makes the next read compute afresh and see it', async () => {
      const computations = { n: 0 };
      assert.equal(await heavyRead(storage.db, 'fresh', () => count(computations)), 0);
      await sql`insert into counted values (1)`.execute(storage.db);
      assert.equal(await heavyRead(storage.db, 'fresh', () => count(computations)), 1);
      assert.equal(computations.n, 2);
    });

    it('different parameters are different answers', async () => {
      assert.equal(await heavyRead(storage.db, 'a', async () => 'a'), 'a');
      assert.equal(await heavyRead(storage.db, 'b', async () => 'b'), 'b');
    });
  });
}
