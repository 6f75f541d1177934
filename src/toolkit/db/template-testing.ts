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
 * WAL in 1 MB segments rather than 16, and as few kept as postgres allows: the data directory's
 * 16 MB segment was 40% of a dump's bytes, which every test process reads and unpacks into PGlite's
 * in-memory file system when it opens a database. Nothing Earshot does depends on the WAL's size.
 */
const TEMPLATE_INITDB = ['--wal-segsize=1', '--set', 'min_wal_size=2MB', '--set', 'wal_recycle=off'];

/**
 * Booting PGlite and migrating it costs seconds; loading a dump of an already migrated data
 * directory costs a fraction of that. Tests therefore start every embedded database from one
 * template, written once per machine to a file named by what it depends on (the migrations'
 * contents, PGlite's version and the initdb options above): a changed migration or PGlite names a new file. Whoever opens
 * a database from it still runs the migrations, so a template can never hide one.
 */
function templateFile(): string {
  const hash = createHash('sha256');
  const pglitePackage = path.join(PACKAGE_ROOT, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(JSON.parse(fs.readFileSync(pglitePackage, 'utf8')).version).update(TEMPLATE_INITDB.join(' '));
  for (const file of migrationFiles()) hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  return path.join(os.tmpdir(), `earshot-test-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function writeTemplate(file: string): Promise<void> {
  const pglite = await openPglite(undefined, undefined, TEMPLATE_INITDB);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
  try {
    await migrate(db);
    // Removes the WAL segments the migrations filled (wal_recycle is off), so the dump keeps one.
    await pglite.exec('checkpoint');
    const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    // Test processes start side by side: each writes its own copy and renames it into place, so a
    // reader sees a whole template or none.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
  } finally {
    await db.destroy();
  }
}

/** A day: templates of other migration sets older than this belong to no running checkout, and each is ~40 MB. */
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;

function removeStaleTemplates(keep: string): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const file = path.join(os.tmpdir(), name);
    if (!name.startsWith('earshot-test-template-') || file === keep) continue;
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_TEMPLATE_MS) fs.rmSync(file, { force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

async function ensureTemplate(): Promise<string> {
  const file = templateFile();
  if (!fs.existsSync(file)) {
    await writeTemplate(file);
    removeStaleTemplates(file);
  }
  return file;
}

let template: Promise<string> | undefined;

/** The file holding a dump (a tar) of a migrated, empty embedded database's data directory. */
export function migratedTemplateFile(): Promise<string> {
  template ??= ensureTemplate();
  return template;
}

/** The template as PGlite's `loadDataDir` takes it. */
export async function migratedTemplate(): Promise<Blob> {
  return new Blob([fs.readFileSync(await migratedTemplateFile())]);
}
