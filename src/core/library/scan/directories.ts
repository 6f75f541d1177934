/**
 * Brings library_directories in line with the walked tree, set-based: new directories are
 * inserted (parents first, ids chosen here so children can name them), gone ones deleted (their
 * files and subdirectories go with them), and every directory that stays keeps its id.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Database } from '../../../toolkit/db/index.ts';
import { inChunks } from './chunks.ts';

/** The parent's relative path of a non-root directory (or file). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export interface DirectoryTarget {
  sourceId: number;
  /** The source's owner (null: server-wide). */
  userId: string | null;
  /** The root directory's name. */
  rootName: string;
}

/**
 * Returns the directory id of every walked path. `walked` must list parents before children
 * (the walk's order). A file host's folder ids are kept, so its changes can name folders by id.
 */
export async function syncDirectories(
  db: Database,
  target: DirectoryTarget,
  walked: readonly string[],
  folderIds: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const existing = await db.selectFrom('library_directories').select(['id', 'path', 'file_id']).where('source_id', '=', target.sourceId).execute();
  const ids = new Map(existing.map((row) => [row.path, row.id]));
  const added = walked.filter((path) => !ids.has(path));
  for (const path of added) ids.set(path, randomUUID());
  const rows = added.map((path) => ({
    id: ids.get(path)!,
    source_id: target.sourceId,
    user_id: target.userId,
    parent_id: path === '' ? null : ids.get(parentPath(path))!,
    name: path === '' ? target.rootName : basename(path),
    path,
    file_id: folderIds.get(path) ?? null,
  }));
  await inChunks(rows, 1000, (chunk) => db.insertInto('library_directories').values(chunk).execute());
  // A folder replaced by another of the same path (deleted and made again) takes the new id.
  for (const row of existing) {
    const fileId = folderIds.get(row.path);
    if (fileId !== undefined && fileId !== row.file_id) {
      await db.updateTable('library_directories').set({ file_id: fileId, updated_at: new Date() }).where('id', '=', row.id).execute();
    }
  }
  const kept = new Set(walked);
  const gone = existing.filter((row) => !kept.has(row.path)).map((row) => row.id);
  await inChunks(gone, 1000, (chunk) => db.deleteFrom('library_directories').where('id', 'in', chunk).execute());
  for (const row of existing) if (!kept.has(row.path)) ids.delete(row.path);
  return ids;
}
