import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { PACKAGE_ROOT } from '../package-root.ts';

// Read from the sources whether this runs from src/ or compiled in dist/: the .sql files are not built.
export const MIGRATIONS_DIR = path.join(PACKAGE_ROOT, 'src/toolkit/db/migrations');
/** Serializes concurrent starts against one server so each migration runs exactly once. */
const MIGRATION_LOCK_KEY = 7_203_441_905;

export function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort();
}

/** The migrations this code ships that the database has not recorded (readiness, and what migrate applies). */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before and below the typed schema
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const done = await sql<{ version: string }>`select version from schema_migrations`.execute(db);
  const applied = new Set(done.rows.map((row) => row.version));
  return migrationFiles().filter((file) => !applied.has(file));
}

/**
 * Applies every migration not yet recorded, each in its own transaction, and returns their names.
 * Each transaction takes a transaction-level advisory lock and then looks for the next pending
 * migration, so processes starting together apply each migration once. A session-level lock and
 * its unlock could reach two different server connections behind a pooler in transaction mode
 * (PgBouncer's `pool_mode = transaction`); a transaction's lock goes with the transaction.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before and below the typed schema
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const applied: string[] = [];
  for (;;) {
    const file = await db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(tx);
      await sql`create table if not exists schema_migrations (
        version text primary key,
        applied_at timestamptz not null default now()
      )`.execute(tx);
      const next = (await pendingMigrations(tx))[0];
      if (next === undefined) return undefined;
      await sql.raw(fs.readFileSync(path.join(MIGRATIONS_DIR, next), 'utf8')).execute(tx);
      await sql`insert into schema_migrations (version) values (${next})`.execute(tx);
      return next;
    });
    if (file === undefined) return applied;
    applied.push(file);
  }
}
