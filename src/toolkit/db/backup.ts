/**
 * Backing up and restoring the embedded database with PGlite's own tooling: a dump is PGlite's
 * data directory as a gzipped tarball (dumpDataDir), taken while no server has the directory
 * open (its lock says), so it is consistent; a restore makes a data directory from one. A
 * PostgreSQL server is backed up with its own tools (pg_dump), which the CLI explains.
 */
import fs from 'node:fs';
import { lockDataDir } from './data-dir-lock.ts';
import { hasEmbeddedDatabase, openDatabase, openPglite } from './database.ts';

export class BackupError extends Error {}

/**
 * Writes `file` whole or not at all: a failure part-way leaves no half backup under its name.
 * Only a new or regular file is replaced: the rename would otherwise put the backup in place of
 * a device (as root, `--out /dev/full` would swap the device for a file) or a directory's link.
 */
function writeWhole(file: string, bytes: Uint8Array): void {
  const existing = fs.lstatSync(file, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) throw new BackupError(`${file} exists and is not a regular file; name a new file or a backup to replace`);
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
}

/** Dumps the database in `dataDir` to `file`; answers its size in bytes. */
export async function backupEmbedded(dataDir: string, file: string): Promise<number> {
  if (!hasEmbeddedDatabase(dataDir)) throw new BackupError(`there is no database in ${dataDir} to back up`);
  const unlock = lockDataDir(dataDir);
  try {
    const pglite = await openPglite(dataDir);
    try {
      const dump = await pglite.dumpDataDir('gzip');
      writeWhole(file, new Uint8Array(await dump.arrayBuffer()));
    } finally {
      await pglite.close();
    }
  } finally {
    unlock();
  }
  return fs.statSync(file).size;
}

/**
 * Makes `dataDir` from a backup and checks it opens (its migrations brought up to date);
 * answers how many users it holds. An existing database is refused unless `replace`, which
 * moves it aside (to `<dataDir>.before-restore-<time>`) rather than deleting it.
 */
export async function restoreEmbedded(dataDir: string, file: string, replace: boolean): Promise<{ users: number; movedAside: string | null }> {
  const bytes = fs.readFileSync(file);
  // gzip's magic number: anything else is not a backup this command made.
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new BackupError(`${file} is not an Earshot backup (a .tar.gz made by \`earshot backup\`)`);
  const unlock = lockDataDir(dataDir);
  let movedAside: string | null = null;
  try {
    if (hasEmbeddedDatabase(dataDir)) {
      if (!replace) throw new BackupError(`${dataDir} already holds a database; add --replace to move it aside and restore over it`);
      movedAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(dataDir, movedAside);
    } else {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    try {
      await (await openPglite(dataDir, new Blob([bytes]))).close();
      const db = await openDatabase({ kind: 'pglite', dataDir });
      try {
        const row = await db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        return { users: Number(row.n), movedAside };
      } finally {
        await db.destroy();
      }
    } catch (error) {
      // A backup that does not open leaves things as they were.
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (movedAside) fs.renameSync(movedAside, dataDir);
      throw new BackupError(`${file} could not be restored: ${(error as Error).message}`);
    }
  } finally {
    unlock();
  }
}
