import type { Database } from '../../toolkit/db/index.ts';
import { visibleSource } from '../../core/library/views.ts';

/** Music folders are library sources; their integer ids are what Subsonic clients expect. */
export async function visibleFolders(db: Database, userId: string) {
  return db
    .selectFrom('library_sources')
    .select(['id', 'name', 'updated_at', 'last_scan_at'])
    .where((eb) => visibleSource(eb, userId))
    .orderBy('id')
    .execute();
}

/** A directory the user can see, or undefined. */
export async function visibleDirectory(db: Database, userId: string, id: string) {
  return db
    .selectFrom('library_directories as d')
    .innerJoin('library_sources', 'library_sources.id', 'd.source_id')
    .select(['d.id', 'd.parent_id', 'd.name', 'd.path', 'd.source_id', 'library_sources.name as source_name'])
    .where('d.id', '=', id)
    .where((eb) => visibleSource(eb, userId))
    .executeTakeFirst();
}

/** Subdirectories of the given directories, by name. */
export async function childDirectories(db: Database, parentIds: readonly string[]) {
  if (parentIds.length === 0) return [];
  return db.selectFrom('library_directories').select(['id', 'parent_id', 'name', 'updated_at']).where('parent_id', 'in', parentIds).orderBy('name').execute();
}

/** The matched files of a directory, in name order: the songs it lists. */
export async function directoryTrackIds(db: Database, directoryIds: readonly string[]): Promise<string[]> {
  if (directoryIds.length === 0) return [];
  const rows = await db
    .selectFrom('library_files')
    .select('track_id')
    .where('directory_id', 'in', directoryIds)
    .where('track_id', 'is not', null)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.track_id!);
}

/** Articles Subsonic clients skip when sorting and indexing names ("The Beatles" under B). */
export const IGNORED_ARTICLES = ['The', 'El', 'La', 'Los', 'Las', 'Le', 'Les'];
/** A leading article and its spaces, in lower case, as a pattern JavaScript and PostgreSQL read alike. */
export const ARTICLE_PATTERN = `^(?:${IGNORED_ARTICLES.map((article) => article.toLowerCase()).join('|')})\\s+`;
const ARTICLE = new RegExp(ARTICLE_PATTERN, 'i');

export function sortName(name: string): string {
  return name.replace(ARTICLE, '').trim();
}

/** The index a name is listed under: its first letter after articles, upper-cased; anything else is '#'. */
export function indexLetter(name: string): string {
  const first = sortName(name).charAt(0).toLocaleUpperCase();
  return /\p{L}/u.test(first) ? first : '#';
}

/** Items grouped into Subsonic indexes, by letter, '#' last, each index sorted by name. */
export function groupByIndex<T extends { name: string }>(items: readonly T[]): { name: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  const sorted = [...items].sort((a, b) => sortName(a.name).localeCompare(sortName(b.name)));
  for (const item of sorted) {
    const letter = indexLetter(item.name);
    const group = groups.get(letter);
    if (group) group.push(item);
    else groups.set(letter, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b))).map(([name, grouped]) => ({ name, items: grouped }));
}
