/**
 * One algorithm for every source: a listing of what a source holds now (a local folder's walk, a
 * file host's listing) is brought into the library. Files whose size and time are unchanged are
 * not read again; new and changed ones are read, matched into the catalog and written; what is
 * gone leaves. The local scan and the file host sync both end here.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import type { AppContext } from '../../context.ts';
import { fillAlbumGaps, fillTrackArt } from './catalog-gaps.ts';
import { syncDirectories } from './directories.ts';
import { deleteFiles, diffFiles, updateCovers, writeFiles, type TagReader } from './files.ts';
import type { ScanReport } from './report.ts';
import { ProviderError } from '../../providers/errors.ts';
import { LeaseLost, ScanLease } from './source.ts';
import type { Walk } from './walk.ts';

export interface SourceTarget {
  sourceId: number;
  /** The source's owner (null: the server-wide local folder). */
  userId: string | null;
  /** The root directory's name. */
  rootName: string;
  readTags: TagReader;
}

/** What a reconcile changed, as the report counts it. */
type Counts = Pick<ScanReport, 'added' | 'updated' | 'removed' | 'unchanged' | 'directories' | 'skipped' | 'skippedCount'>;

/**
 * Brings the source in line with `walk`, whose `directories` are the ones to keep (parents
 * first). `checkpoint` throws when the work must stop (aborted, or the lease lost).
 */
export async function reconcile(ctx: Pick<AppContext, 'db' | 'config'>, target: SourceTarget, walk: Walk, checkpoint: () => void): Promise<Counts> {
  const { db } = ctx;
  const folderCover = (dir: string) => walk.folderImages.get(dir) ?? null;
  const diff = await diffFiles(db, target.sourceId, walk.audio, folderCover);
  await deleteFiles(db, diff.gone);
  const directoryIds = await syncDirectories(db, target, walk.directories, walk.folderIds);
  await updateCovers(db, diff.covers);
  const unreadable = await writeFiles(
    { db, sourceId: target.sourceId, userId: target.userId, readTags: target.readTags, directoryIds, folderCover, skips: walk.skipped, checkpoint },
    [...diff.added, ...diff.changed],
  );
  // A changed file that no longer reads as audio leaves the library, as a removed one does.
  const changedUnreadable = diff.changed.filter((file) => unreadable.has(file.path));
  await deleteFiles(
    db,
    changedUnreadable.map((file) => file.id),
  );
  // Only writes can open gaps to fill: a rescan that changed nothing skips these queries.
  if (diff.added.length + diff.changed.length + diff.covers.length > 0) {
    await fillTrackArt(db, target.sourceId, ctx.config.publicUrl);
    await fillAlbumGaps(db, target.sourceId, ctx.config.publicUrl);
  }
  if (diff.added.length + diff.changed.length + diff.covers.length + diff.gone.length > 0) await refreshStatistics(db);
  return {
    added: diff.added.filter((file) => !unreadable.has(file.path)).length,
    updated: diff.changed.length - changedUnreadable.length,
    removed: diff.gone.length + changedUnreadable.length,
    unchanged: diff.unchanged,
    directories: walk.directories.length,
    skipped: walk.skipped.listed,
    skippedCount: walk.skipped.count,
  };
}

/** The library's tables, whose statistics its reads (albums, covers, searches) are planned with. */
const LIBRARY_TABLES = ['library_sources', 'library_files', 'library_directories', 'tracks', 'albums', 'artists'] as const;

/**
 * Gathers the planner's statistics of the library's tables after a scan changed them. PGlite runs
 * no autovacuum, so without this its tables are never analyzed: misjudging how many rows its
 * conditions keep, postgres then plans an album's page or a cover lookup as a walk through every
 * file of the library (10-40 ms each on 2,000 files, well under 1 ms once analyzed).
 * On PostgreSQL autovacuum would get there too, later; ANALYZE reads a bounded sample and blocks
 * neither reads nor writes.
 */
async function refreshStatistics(db: Database): Promise<void> {
  await sql`analyze ${sql.join(LIBRARY_TABLES.map((table) => sql.table(table)))}`.execute(db);
}

/** What a user is told of a failed scan or sync: a provider's explanation, or where to look. */
function failureText(error: unknown): string {
  if (error instanceof ProviderError || error instanceof LeaseLost) return error.message;
  return 'failed inside Earshot; the server log has the details';
}

export function emptyReport(sourceId: number, root: string, started: Date): ScanReport {
  return {
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
}

/**
 * Runs `work` holding the source's lease, and keeps its report on the source. When another scan
 * or sync of the source is running (in any process on this database), answers at once with
 * status 'already-scanning'.
 */
export async function whileLeased(
  ctx: Pick<AppContext, 'db'>,
  report: ScanReport,
  options: { signal?: AbortSignal | undefined; onLeased?: (() => void) | undefined },
  work: (checkpoint: () => void) => Promise<void>,
): Promise<ScanReport> {
  const started = Date.parse(report.startedAt);
  const lease = await ScanLease.take(ctx.db, report.sourceId, new Date(started));
  options.onLeased?.();
  if (!lease) return { ...report, status: 'already-scanning' };
  try {
    await work(() => {
      options.signal?.throwIfAborted();
      lease.check();
    });
  } catch (error) {
    // A stop asked for (shutdown) is no failure to show; anything else is, in words safe to show.
    await lease.release(options.signal?.aborted ? undefined : { error: failureText(error) }).catch(() => {});
    throw error;
  }
  report.durationMs = Date.now() - started;
  await lease.release(report);
  return report;
}
