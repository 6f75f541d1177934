import { sql, type RawBuilder } from 'kysely';
import type { Database, StarKind } from '../../toolkit/db/index.ts';

type Reader = Pick<Database, 'selectFrom'>;

/**
 * The ids as the catalog knows them now: an id merged away (catalog edits) becomes the id of the
 * entry that absorbed it; any other id is returned as given. A merge re-points older aliases to
 * its survivor, so one lookup suffices.
 */
export async function currentIds(db: Reader, kind: StarKind, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('catalog_aliases')
    .select(['old_id', 'survivor_id'])
    .where('kind', '=', kind)
    .where('old_id', 'in', [...new Set(ids)])
    .execute();
  const survivors = new Map(rows.map((row) => [row.old_id, row.survivor_id]));
  return ids.map((id) => survivors.get(id) ?? id);
}

export async function currentId(db: Reader, kind: StarKind, id: string): Promise<string> {
  const [current] = await currentIds(db, kind, [id]);
  return current!;
}

/** currentId as an expression, resolved inside the statement that uses it rather than by a statement of its own. */
export function currentIdSql(kind: StarKind, id: string): RawBuilder<string> {
  return sql<string>`coalesce((select ca.survivor_id from catalog_aliases ca where ca.kind = ${kind} and ca.old_id = ${id}), ${id}::uuid)`;
}
