/**
 * Scans the local music folder (EARSHOT_MUSIC_DIR) into the library: one entry point for the
 * `earshot library scan` command and the scan at server start.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ConfigError } from '../../../toolkit/config-error.ts';
import type { AppContext } from '../../context.ts';
import { confinedRealPath } from '../confined.ts';
import { readFileTags } from '../tags.ts';
import { parentPath } from './directories.ts';
import { emptyReport, reconcile, whileLeased } from './reconcile.ts';
import type { ScanReport } from './report.ts';
import { ensureLocalSource } from './source.ts';
import { LINKS_OUTSIDE, walkTree, type Walk, type WalkedFile } from './walk.ts';

export { formatReport, reportSummary, type ScanReport, type Skipped } from './report.ts';

export interface ScanOptions {
  /** The folder to scan; the configured EARSHOT_MUSIC_DIR unless given. */
  musicDir?: string | undefined;
  /** Stops the scan between transactions (e.g. the server shutting down); the lease is given back. */
  signal?: AbortSignal | undefined;
  /** Called once the scan holds the folder's lease (or found another scan holding it): from then on the folder reads as scanning. */
  onLeased?: (() => void) | undefined;
}

/** The folder to scan, or a ConfigError saying what is wrong with it. */
export async function musicRoot(dir: string | undefined): Promise<string> {
  if (!dir) throw new ConfigError('EARSHOT_MUSIC_DIR is not set: set it to the folder holding your music');
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new ConfigError(`EARSHOT_MUSIC_DIR is ${dir}, which does not exist`);
  if (!info.isDirectory()) throw new ConfigError(`EARSHOT_MUSIC_DIR is ${dir}, which is not a directory`);
  return resolve(dir);
}

/**
 * Scans the folder incrementally and returns the report (also kept on the source row). When
 * another scan of the folder is running (in any process on this database), returns at once with
 * status 'already-scanning'.
 */
export async function scanLibrary(ctx: AppContext, options: ScanOptions = {}): Promise<ScanReport> {
  const root = await musicRoot(options.musicDir ?? ctx.config.musicDir);
  const sourceId = await ensureLocalSource(ctx.db, root);
  const report = emptyReport(sourceId, root, new Date());
  return whileLeased(ctx, report, options, async (checkpoint) => {
    const walk = await walkTree(root);
    checkpoint();
    const target = { sourceId, userId: null, rootName: basename(root) || root, readTags: (file: WalkedFile) => readConfinedTags(root, file) };
    Object.assign(report, await reconcile(ctx, target, { ...walk, directories: musicDirectories(walk) }, checkpoint));
  });
}

/** A file's tags, read from its real path checked again just before (a link may have changed since the walk). */
async function readConfinedTags(root: string, file: WalkedFile) {
  const real = await confinedRealPath(root, file.path);
  if (real === null) throw new Error(`missing, or ${LINKS_OUTSIDE}`);
  return readFileTags(real, file.name);
}

/** The root and every directory holding audio, directly or below: a folder emptied of music leaves the library. */
function musicDirectories(walk: Walk): string[] {
  const kept = new Set(['']);
  for (const file of walk.audio) {
    for (let dir = file.dir; !kept.has(dir); dir = parentPath(dir)) kept.add(dir);
  }
  return walk.directories.filter((dir) => kept.has(dir));
}
