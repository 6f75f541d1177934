import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from './database.ts';
import { migratedTemplate } from './template-testing.ts';

export interface TestBackend {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty database; `close` discards it. */
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

const pglite: TestBackend = {
  name: 'pglite',
  async open() {
    const db = await openDatabase({ kind: 'pglite', dataDir: undefined, load: await migratedTemplate() });
    return { db, close: () => db.destroy() };
  },
};

function postgres(url: string): TestBackend {
  return {
    name: 'postgres',
    async open() {
      const schema = `earshot_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create schema ${schema}`);
      } finally {
        await admin.end();
      }
      const db = await openDatabase({ kind: 'postgres', url, schema });
      return {
        db,
        async close() {
          await db.destroy();
          const dropper = new pg.Client({ connectionString: url });
          await dropper.connect();
          try {
            await dropper.query(`drop schema ${schema} cascade`);
          } finally {
            await dropper.end();
          }
        },
      };
    },
  };
}

/** PGlite always; a PostgreSQL server too when TEST_DATABASE_URL names one. */
export function testBackends(): TestBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pglite, postgres(url)] : [pglite];
}

/**
 * The one backend for a suite where storage is not the point (what HTTP answers look like, a
 * browser's view, a real client's round trips): the PostgreSQL server when TEST_DATABASE_URL names
 * one, else PGlite. The server is the cheaper of the two for such a suite: it starts in a fraction
 * of the time, and its work runs in its own process rather than in the test's, as PGlite's does.
 */
export function oneBackend(): TestBackend {
  return testBackends().at(-1)!;
}
