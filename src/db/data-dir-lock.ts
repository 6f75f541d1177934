import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database is a single-process store: a second process opening
 * the same directory would corrupt it. Claims the directory for this process;
 * the returned function releases it.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Beside the directory, not in it: PGlite owns the directory's contents.
  const file = `${dir}.pid`;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(fs.readFileSync(file, 'utf8'));
    if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
      throw new DataDirInUseError(
        `the embedded database in ${dir} is in use by process ${holder}; stop it first, or use a PostgreSQL server (DATABASE_URL) to run several processes`,
      );
    }
    fs.rmSync(file, { force: true });
  }
}
