import type { Database, StarKind } from '../db/index.ts';
import { libraryNotFound } from './errors.ts';

/** Catalog ids are UUIDs; anything else names nothing, and must not reach a uuid column as a cast error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

const TABLES = { song: 'tracks', album: 'albums', artist: 'artists' } as const;

type Reader = Pick<Database, 'selectFrom'>;

/** Throws NotFound naming the first of `ids` the catalog has no such entry for; callers check before they write. */
export async function requireKnown(db: Reader, kind: StarKind, ids: readonly string[]): Promise<void> {
  const unknown = ids.find((id) => !isUuid(id));
  if (unknown !== undefined) throw libraryNotFound(`no ${kind} ${unknown}`);
  if (ids.length === 0) return;
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await db.selectFrom(TABLES[kind]).select('id').where('id', 'in', distinct).execute();
  const found = new Set(rows.map((row) => row.id));
  const missing = distinct.find((id) => !found.has(id));
  if (missing !== undefined) throw libraryNotFound(`no ${kind} ${missing}`);
}

/** Song ids as the catalog keeps them (lowercase), after checking every one exists. */
export async function knownSongs(db: Reader, ids: readonly string[]): Promise<string[]> {
  await requireKnown(db, 'song', ids);
  return ids.map((id) => id.toLowerCase());
}

/**
 * What each id names: a song, an album or an artist (Subsonic's star takes a song's or a folder's
 * id as `id`). Throws NotFound for the first id that names none of them.
 */
export async function catalogKinds(db: Reader, ids: readonly string[]): Promise<StarKind[]> {
  const unknown = ids.find((id) => !isUuid(id));
  if (unknown !== undefined) throw libraryNotFound(`no song, album or artist ${unknown}`);
  if (ids.length === 0) return [];
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
  const kinds = new Map<string, StarKind>();
  for (const kind of ['song', 'album', 'artist'] as const) {
    const rows = await db.selectFrom(TABLES[kind]).select('id').where('id', 'in', distinct).execute();
    for (const row of rows) if (!kinds.has(row.id)) kinds.set(row.id, kind);
  }
  return ids.map((id) => {
    const kind = kinds.get(id.toLowerCase());
    if (!kind) throw libraryNotFound(`no song, album or artist ${id}`);
    return kind;
  });
}
