import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from './database.ts';
import { inTransaction, RetryableConflict, TRANSACTION_ATTEMPTS } from './retry.ts';
import { testBackends } from './testing.ts';

/** Resolves once `parties` callers wait on it: both transactions then hold their first lock. */
function barrier(parties: number): () => Promise<void> {
  let waiting = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++waiting === parties) open();
    return opened;
  };
}

for (const backend of testBackends()) {
  describe(`inTransaction [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => ({ db, close } = await backend.open()));
    after(() => close());

    test("a RetryableConflict runs the whole transaction again, and its result is the last attempt's", async () => {
      let attempts = 0;
      const result = await inTransaction(db, async (tx) => {
        attempts++;
        const { rows } = await sql<{ n: number }>`select ${attempts}::int as n`.execute(tx);
        if (attempts < 3) throw new RetryableConflict('plan changed');
        return rows[0]!.n;
      });
      assert.deepEqual({ attempts, result }, { attempts: 3, result: 3 });
    });

    test('other errors are not retried, and a conflict that persists surfaces after a bounded number of attempts', async () => {
      let attempts = 0;
      await assert.rejects(
        inTransaction(db, async () => {
          attempts++;
          throw new Error('bad input');
        }),
        /bad input/,
      );
      assert.equal(attempts, 1);
      attempts = 0;
      await assert.rejects(
        inTransaction(db, async () => {
          attempts++;
          throw new RetryableConflict('always');
        }),
        RetryableConflict,
      );
      assert.equal(attempts, TRANSACTION_ATTEMPTS);
    });

    if (backend.name === 'postgres') {
      test('a deadlock between two transactions is retried: both commit', async () => {
        // Random lock numbers: other test files share this server's advisory lock space.
        const [first, second] = [randomInt(2 ** 40), randomInt(2 ** 40) + 2 ** 40];
        const bothHoldOne = barrier(2);
        let attempts = 0;
        const crossing = (mine: number, theirs: number) =>
          inTransaction(db, async (tx) => {
            attempts++;
            await sql`select pg_advisory_xact_lock(${mine}::bigint)`.execute(tx);
            if (attempts <= 2) await bothHoldOne();
            await sql`select pg_advisory_xact_lock(${theirs}::bigint)`.execute(tx);
            return 'committed';
          });
        assert.deepEqual(await Promise.all([crossing(first, second), crossing(second, first)]), ['committed', 'committed']);
        assert.equal(attempts, 3, 'PostgreSQL aborts one of the two, which runs again');
      });
    }
  });
}
