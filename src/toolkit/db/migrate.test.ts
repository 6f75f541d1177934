import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrate, migrationFiles } from './migrate.ts';
import { testBackends } from './testing.ts';
import type { Database } from './database.ts';

for (const backend of testBackends()) {
  describe(`migrations on ${backend.name}`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => ({ db, close } = await backend.open()));
    after(() => close());

    test('records every migration file once', async () => {
      const rows = await sql<{ version: string }>`select version from schema_migrations order by version`.execute(db);
      assert.deepEqual(
        rows.rows.map((row) => row.version),
        migrationFiles(),
      );
    });

    test('a second run applies nothing', async () => {
      assert.deepEqual(await migrate(db), []);
    });

    test('int8 aggregates arrive as numbers', async () => {
      const { rows } = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
      assert.equal(rows[0]?.n, 0);
    });
  });
}
