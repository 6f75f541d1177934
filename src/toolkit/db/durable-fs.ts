import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** The parts of Emscripten's NODEFS this module touches (it is untyped in PGlite's declarations). */
interface EmscriptenNodeFs {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

/**
 * PGlite's postgres runs in WebAssembly over Emscripten's NODEFS, which cannot
 * reach the disk's cache: its fdatasync() is a no-op, and its fsync() calls the
 * file stream's `fsync` operation, which NODEFS does not have, so it succeeds
 * without syncing anything. This filesystem gives NODEFS streams an fsync that
 * is the real one, so postgres' own durability machinery works unchanged: the
 * WAL is synced before a commit is acknowledged, data files at checkpoints.
 */
export class DurableNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    const installFsync = (mod: { NODEFS?: EmscriptenNodeFs }) => {
      const nodefs = mod.NODEFS;
      if (!nodefs) throw new Error('PGlite no longer exposes NODEFS; the data directory could not be made durable');
      // tryFSOperation turns a Node error (EIO, ENOSPC) into the errno postgres expects, so it can PANIC rather than lose data.
      nodefs.stream_ops.fsync = (stream) =>
        nodefs.tryFSOperation(() => {
          fs.fsyncSync(stream.nfd);
          return 0;
        });
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), installFsync as never] } };
  }
}

/**
 * Postgres flags for a data directory that must survive power loss: PGlite's
 * defaults minus `-F` (fsync off). WAL is synced with fsync(), the one sync
 * call that reaches the disk here; `synchronous_commit` keeps its default, on.
 */
const DURABLE_START_PARAMS = [...PGlite.defaultStartParams.filter((flag) => flag !== '-F'), '-c', 'wal_sync_method=fsync'];

/** Syncs every file and directory below `dir`, then `dir` itself. */
function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(full);
    else if (entry.isFile()) syncFile(full);
  }
  syncFile(dir);
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** PGlite options for `dataDir` on disk, with every acknowledged commit on stable storage. */
export function durablePgliteOptions(dataDir: string): Pick<PGliteOptions, 'fs' | 'startParams'> {
  return { fs: new DurableNodeFS(dataDir), startParams: DURABLE_START_PARAMS };
}

/**
 * A new data directory is written by PGlite's initdb outside postgres, so no
 * checkpoint will ever sync those files: sync them once, with the directories
 * naming them, before the first write is acknowledged.
 */
export async function syncNewDataDir(pglite: PGlite, dataDir: string, isNew: boolean): Promise<void> {
  if (!isNew) return;
  await pglite.waitReady;
  syncTree(dataDir);
  syncFile(path.dirname(dataDir));
}
