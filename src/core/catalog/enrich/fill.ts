/**
 * Enrichment writes only what is missing, and never what an admin decided: a column is filled
 * only while it is empty and no catalog edit in force (catalog/edits) changed it on that row. An
 * edit keeps each row's image from before it; where that image's value differs from the value
 * now, the edit set it (to a value, or cleared it on purpose), so the value stays. (A row image
 * holds SQL null as JSON null, hence the coalesce.)
 */
import { sql, type RawBuilder } from 'kysely';
import { inTransaction, type Database } from '../../../toolkit/db/index.ts';

export type EnrichedTable = 'tracks' | 'albums' | 'artists';
export type EnrichedColumn = 'mbid' | 'genre' | 'genres' | 'album_art' | 'picture';

const isMissing = (column: EnrichedColumn) => (column === 'genres' ? sql`cardinality(t.genres) = 0` : sql`${sql.ref(`t.${column}`)} is null`);

/** No admin edit in force changed `t.<column>` (the row aliased `t` of `table`). */
const notEdited = (table: EnrichedTable, column: EnrichedColumn) => sql`not exists (
  select 1 from catalog_edits e cross join lateral jsonb_array_elements(coalesce(e.changes -> 'updated' -> ${table}::text, '[]'::jsonb)) as before (image)
  where e.undone_at is null and e.touched @> array[${table}::text || ':' || t.id::text]
    and before.image ->> 'id' = t.id::text and before.image -> ${column}::text is distinct from coalesce(to_jsonb(${sql.ref(`t.${column}`)}), 'null'::jsonb))`;

/** Artists and albums have one entry per MBID (unique indexes): an MBID another entry has is not given twice. */
const mbidFree = (table: EnrichedTable, column: EnrichedColumn, value: string | string[]) =>
  column === 'mbid' && table !== 'tracks' ? sql`and not exists (select 1 from ${sql.table(table)} o where o.mbid = ${value})` : sql``;

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/**
 * Sets `column` to `value` on the rows of `table` (aliased `t` in `where`) that lack it and whose
 * column no edit decided; answers how many it filled. Rows are locked in id order first, the
 * order every catalog writer takes them in, so a fill never deadlocks an ingestion.
 */
export async function fillMissing(
  db: Database,
  table: EnrichedTable,
  where: RawBuilder<unknown>,
  column: EnrichedColumn,
  value: string | string[],
): Promise<number> {
  const newValue = Array.isArray(value) ? sql`array(select jsonb_array_elements_text(${JSON.stringify(value)}::jsonb))` : sql`${value}`;
  const fillable = sql`${where} and ${isMissing(column)} and ${notEdited(table, column)} ${mbidFree(table, column, value)}`;
  try {
    return await inTransaction(db, async (tx) => {
      await sql`select t.id from ${sql.table(table)} t where ${fillable} order by t.id for update`.execute(tx);
      const { rows } =
        await sql`update ${sql.table(table)} t set ${sql.ref(column)} = ${newValue}, updated_at = now() where ${fillable} returning t.id`.execute(tx);
      return rows.length;
    });
  } catch (error) {
    // Another entry took the MBID between the check and the write.
    if (isUniqueViolation(error)) return 0;
    throw error;
  }
}

/** Whether `t.<column>` of the entry is empty and no edit decided it: worth fetching a value for. */
export async function isFillable(db: Database, table: EnrichedTable, id: string, column: EnrichedColumn): Promise<boolean> {
  const { rows } = await sql`select 1 from ${sql.table(table)} t where t.id = ${id} and ${isMissing(column)} and ${notEdited(table, column)}`.execute(db);
  return rows.length > 0;
}
