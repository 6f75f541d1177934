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
 * When the kernel started process `pid` (clock ticks since boot, field 22 of
 * /proc/<pid>/stat), or undefined without procfs. A pid alone is not an
 * identity: after a crash the number is reused by unrelated processes, while
 * pid plus start time names one process for the whole uptime of the machine.
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; the fields after it do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs the same program as this process, when procfs can tell; a pid file from an older Earshot records no start time. */
function runsThisProgram(pid: number): boolean {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`) === fs.readlinkSync('/proc/self/exe');
  } catch {
    return true;
  }
}

interface Holder {
  pid: number;
  startTime: string | undefined;
}

function parseHolder(text: string): Holder | undefined {
  const [pid, startTime] = text.trim().split(/\s+/);
  const holder = Number(pid);
  return Number.isInteger(holder) && holder > 0 ? { pid: holder, startTime } : undefined;
}

/** Whether the process a pid file names is still the one that wrote it. */
function holdsLock({ pid, startTime }: Holder): boolean {
  if (pid === process.pid || !isRunning(pid)) return false;
  const current = startTimeOf(pid);
  if (current === undefined) return true;
  return startTime === undefined ? runsThisProgram(pid) : startTime === current;
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
  const identity = [process.pid, startTimeOf(process.pid)].filter((part) => part !== undefined).join(' ');
  for (;;) {
    try {
      fs.writeFileSync(file, identity, { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = parseHolder(fs.readFileSync(file, 'utf8'));
    if (holder && holdsLock(holder)) {
      throw new DataDirInUseError(
        `the embedded database in ${dir} is in use by process ${holder.pid}; stop it first, or use a PostgreSQL server (DATABASE_URL) to run several processes`,
      );
    }
    fs.rmSync(file, { force: true });
  }
}
