import { currentId } from '../../core/catalog/aliases.ts';
import type { Database, StarKind } from '../../toolkit/db/index.ts';
import { libraryNotFound } from '../../core/library/errors.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import type { SubsonicParams } from './method.ts';

/**
 * A required id parameter naming a row by uuid. Anything else names nothing, so it is "not
 * found" (70) rather than reaching the database as a malformed uuid.
 */
export function uuidParam(params: SubsonicParams, name = 'id'): string {
  const value = params.required(name);
  if (!isUuid(value)) throw libraryNotFound(`no such ${name} ${value}`);
  return value.toLowerCase();
}

/** A required id naming a catalog entry; a merged-away id names the entry that absorbed it. */
export async function catalogParam(db: Database, params: SubsonicParams, kind: StarKind): Promise<string> {
  return currentId(db, kind, uuidParam(params));
}

/** A page size: the default when absent, clamped to [0, max] (Subsonic servers clamp rather than refuse). */
export function sizeParam(params: SubsonicParams, name: string, fallback: number, max = 500): number {
  return Math.min(Math.max(params.integer(name) ?? fallback, 0), max);
}

export function offsetParam(params: SubsonicParams, name = 'offset'): number {
  return Math.max(params.integer(name) ?? 0, 0);
}

/** The `musicFolderId` filter: a source id, or undefined for every folder the user sees. */
export function folderParam(params: SubsonicParams): number | undefined {
  return params.integer('musicFolderId');
}
