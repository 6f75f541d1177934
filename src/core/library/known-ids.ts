import type { Database, StarKind } from '../../toolkit/db/index.ts';
import { currentIds } from '../catalog/aliases.ts';
import { libraryNotFound } from './errors.ts';
import { isUuid } from '../../toolkit/uuid.ts';

const TABLES = { song: 'tracks', album: 'albums', artist: 'artists' } as const;

type Reader = Pick<Database, 'selectFrom'>;

/**
 * The ids as the catalog keeps them (lowercase, a merged-away id as its survivor's), in order;
 * throws NotFound naming the first the catalog has no such entry for. Callers check before they write.
 */
export async function knownIds(db: Reader, kind: StarKind, ids: readonly string[]): Promise<string[]> {
  const unknown = ids.find((id) => !isUuid(id));
  if (unknown !== undefined) throw libraryNotFound(`no ${kind} ${unknown}`);
  if (ids.length === 0) return [];
  const current = await currentIds(
    db,
    kind,
    ids.map((id) => id.toLowerCase()),
  );
  const rows = await db
    .selectFrom(TABLES[kind])
    .select('id')
    .where('id', 'in', [...new Set(current)])
    .execute();
  const found = new Set(rows.map((row) => row.id));
  const missing = current.findIndex((id) => !found.has(id));
  if (missing >= 0) throw libraryNotFound(`no ${kind} ${ids[missing]}`);
  return current;
}

/** Song ids as the catalog keeps them, after checking every one exists. */
export const knownSongs = (db: Reader, ids: readonly string[]) => knownIds(db, 'song', ids);

/**
 * What each id names, a song, an album or an artist (Subsonic's star takes a song's or a folder's
 * id as `id`), with the id as the catalog keeps it (a merged-away id as its survivor's). Throws
 * NotFound for the first id that names none of them.
 */
export async function catalogKinds(db: Reader, ids: readonly string[]): Promise<{ kind: StarKind; id: string }[]> {
  const unknown = ids.find((id) => !isUuid(id));
  if (unknown !== undefined) throw libraryNotFound(`no song, album or artist ${unknown}`);
  if (ids.length === 0) return [];
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = new Map<string, { kind: StarKind; id: string }>();
  for (const kind of ['song', 'album', 'artist'] as const) {
    const current = await currentIds(db, kind, distinct);
    const rows = await db
      .selectFrom(TABLES[kind])
      .select('id')
      .where('id', 'in', [...new Set(current)])
      .execute();
    const present = new Set(rows.map((row) => row.id));
    distinct.forEach((id, i) => {
      if (!found.has(id) && present.has(current[i]!)) found.set(id, { kind, id: current[i]! });
    });
  }
  return ids.map((id) => {
    const target = found.get(id.toLowerCase());
    if (!target) throw libraryNotFound(`no song, album or artist ${id}`);
    return target;
  });
}
