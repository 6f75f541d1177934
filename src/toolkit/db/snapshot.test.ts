import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type KyselyPlugin } from 'kysely';
import type { Database } from './database.ts';
import { currentSnapshot } from './snapshot.ts';
import { testBackends } from './testing.ts';

/** The database seen through a plugin that counts the statements run through it. */
function counted(db: Database): { db: Database; statements: () => number } {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements++;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(counter), statements: () => statements };
}

for (const backend of testBackends()) {
  describe(`the database's snapshot [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => {
      ({ db, close } = await backend.open());
      await sql`create table snapshot_probe (n int)`.execute(db);
    });
    after(() => close());

    test('callers in one turn share one reading', async () => {
      const probe = counted(db);
      const readings = await Promise.all(Array.from({ length: 20 }, () => currentSnapshot(probe.db)));
      assert.equal(new Set(readings).size, 1);
      assert.equal(probe.statements(), 1);
    });

    test('a commit before the call is always in the reading; a reading already sent is never joined', async () => {
      const probe = counted(db);
      const first = currentSnapshot(probe.db);
      await nextTurn(); // the first reading is sent
      await sql`insert into snapshot_probe values (1)`.execute(db);
      const second = await currentSnapshot(probe.db);
      assert.notEqual(second, await first);
      assert.equal(probe.statements(), 2);
    });
  });
}
