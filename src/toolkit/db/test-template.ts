import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { PACKAGE_ROOT } from '../package-root.ts';
import { openPglite } from './database.ts';
import { MIGRATIONS_DIR, migrate, migrationFiles } from './migrate.ts';
import { PGlitePool } from './pglite-pool.ts';

/**
 * Booting PGlite and migrating it costs seconds; loading a dump of an already migrated data
 * directory costs a fraction of that. Tests therefore start every embedded database from one
 * template, written once per machine to a file named by what it depends on (the migrations'
 * contents and PGlite's version): a changed migration or PGlite names a new file. Whoever opens
 * a database from it still runs the migrations, so a template can never hide one.
 */
function templateFile(): string {
  const hash = createHash('sha256');
  const pglitePackage = path.join(PACKAGE_ROOT, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(JSON.parse(fs.readFileSync(pglitePackage, 'utf8')).version);
  for (const file of migrationFiles()) hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  return path.join(os.tmpdir(), `earshot-test-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function writeTemplate(file: string): Promise<Buffer> {
  const pglite = await openPglite(undefined);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
  try {
    await migrate(db);
    const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    // Test processes start side by side: each writes its own copy and renames it into place, so a
    // reader sees a whole template or none.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
    return dump;
  } finally {
    await db.destroy();
  }
}

async function readOrWriteTemplate(): Promise<Blob> {
  const file = templateFile();
  const bytes = fs.existsSync(file) ? fs.readFileSync(file) : await writeTemplate(file);
  return new Blob([bytes]);
}

let template: Promise<Blob> | undefined;

/** A dump of a migrated, empty embedded database, to pass as `loadDataDir`. */
export function migratedTemplate(): Promise<Blob> {
  template ??= readOrWriteTemplate();
  return template;
}
