/**
 * Brings library_directories in line with the walked tree, set-based: new directories are
 * inserted (parents first, ids chosen here so children can name them), gone ones deleted (their
 * files and subdirectories go with them), and every directory that stays keeps its id.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Database } from '../../db/index.ts';
import { inChunks } from './chunks.ts';

/** The parent's relative path of a non-root directory (or file). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * Returns the directory id of every walked path. `walked` must list parents before children
 * (the walk's order). The root's name is the source's folder name.
 */
export async function syncDirectories(db: Database, sourceId: number, root: string, walked: readonly string[]): Promise<Map<string, string>> {
  const existing = await db.selectFrom('library_directories').select(['id', 'path']).where('source_id', '=', sourceId).execute();
  const ids = new Map(existing.map((row) => [row.path, row.id]));
  const added = walked.filter((path) => !ids.has(path));
  for (const path of added) ids.set(path, randomUUID());
  const rows = added.map((path) => ({
    id: ids.get(path)!,
    source_id: sourceId,
    user_id: null,
    parent_id: path === '' ? null : ids.get(parentPath(path))!,
    name: path === '' ? basename(root) || root : basename(path),
    path,
  }));
  await inChunks(rows, 1000, (chunk) => db.insertInto('library_directories').values(chunk).execute());
  const kept = new Set(walked);
  const gone = existing.filter((row) => !kept.has(row.path)).map((row) => row.id);
  await inChunks(gone, 1000, (chunk) => db.deleteFrom('library_directories').where('id', 'in', chunk).execute());
  for (const row of existing) if (!kept.has(row.path)) ids.delete(row.path);
  return ids;
}
