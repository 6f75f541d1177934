/**
 * Scans the local music folder (EARSHOT_MUSIC_DIR) into the library: one entry point for the
 * `earshot library scan` command and the scan at server start.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { fillAlbumGaps, fillTrackArt } from './catalog-gaps.ts';
import { parentPath, syncDirectories } from './directories.ts';
import { deleteFiles, diffFiles, updateCovers, writeFiles } from './files.ts';
import type { ScanReport } from './report.ts';
import { ScanLease, ensureLocalSource } from './source.ts';
import { walkTree, type Walk } from './walk.ts';

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
  const started = new Date();
  const sourceId = await ensureLocalSource(ctx.db, root);
  const report: ScanReport = {
    status: 'scanned',
    sourceId,
    root,
    startedAt: started.toISOString(),
    durationMs: 0,
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    directories: 0,
    skipped: [],
    skippedCount: 0,
  };
  const lease = await ScanLease.take(ctx.db, sourceId, started);
  options.onLeased?.();
  if (!lease) return { ...report, status: 'already-scanning' };
  try {
    await runScan(ctx, report, () => {
      options.signal?.throwIfAborted();
      lease.check();
    });
  } catch (error) {
    await lease.release().catch(() => {});
    throw error;
  }
  report.durationMs = Date.now() - started.getTime();
  await lease.release(report);
  return report;
}

/** `checkpoint` throws when the scan must stop: aborted, or its lease lost. */
async function runScan(ctx: AppContext, report: ScanReport, checkpoint: () => void): Promise<void> {
  const { root, sourceId } = report;
  const walk = await walkTree(root);
  checkpoint();
  const folderCover = (dir: string) => walk.folderImages.get(dir) ?? null;
  const diff = await diffFiles(ctx.db, sourceId, walk.audio, folderCover);
  await deleteFiles(ctx.db, diff.gone);
  const directories = musicDirectories(walk);
  const directoryIds = await syncDirectories(ctx.db, sourceId, root, directories);
  await updateCovers(ctx.db, diff.covers);
  const unreadable = await writeFiles(
    { db: ctx.db, sourceId, root, directoryIds, folderCover, skips: walk.skipped, checkpoint },
    [...diff.added, ...diff.changed],
  );
  // A changed file that no longer reads as audio leaves the library, as a removed one does.
  const changedUnreadable = diff.changed.filter((file) => unreadable.has(file.path));
  await deleteFiles(ctx.db, changedUnreadable.map((file) => file.id));
  // Only writes can open gaps to fill: a rescan that changed nothing skips these queries.
  if (diff.added.length + diff.changed.length + diff.covers.length > 0) {
    await fillTrackArt(ctx.db, sourceId, ctx.config.publicUrl);
    await fillAlbumGaps(ctx.db, sourceId, ctx.config.publicUrl);
  }
  Object.assign(report, {
    added: diff.added.filter((file) => !unreadable.has(file.path)).length,
    updated: diff.changed.length - changedUnreadable.length,
    removed: diff.gone.length + changedUnreadable.length,
    unchanged: diff.unchanged,
    directories: directories.length,
    skipped: walk.skipped.listed,
    skippedCount: walk.skipped.count,
  });
}

/** The root and every directory holding audio, directly or below: a folder emptied of music leaves the library. */
function musicDirectories(walk: Walk): string[] {
  const kept = new Set(['']);
  for (const file of walk.audio) {
    for (let dir = file.dir; !kept.has(dir); dir = parentPath(dir)) kept.add(dir);
  }
  return walk.directories.filter((dir) => kept.has(dir));
}
