import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../../toolkit/db/index.ts';

/**
 * What a catalog edit writes, recorded so undoing it restores the rows exactly. The recorder is
 * generic over the tables an edit touches, so its statements are raw SQL: rows are captured as
 * to_jsonb images (every column, timestamps to the microsecond) and restored through
 * jsonb_populate_recordset, which no typed builder expresses over a table chosen at run time.
 */

export type Tx = Transaction<DB>;

/** The tables edits write, parents before children: the order rows are restored in. */
export const EDITED_TABLES = [
  'artists',
  'albums',
  'tracks',
  'scrobbles',
  'stars',
  'song_dislikes',
  'playlist_items',
  'queue_items',
  'library_files',
  'now_playing',
  'catalog_aliases',
] as const;
export type EditedTable = (typeof EDITED_TABLES)[number];

const KEYS: Record<EditedTable, readonly string[]> = {
  artists: ['id'],
  albums: ['id'],
  tracks: ['id'],
  scrobbles: ['id'],
  stars: ['user_id', 'subject_kind', 'subject_id'],
  song_dislikes: ['user_id', 'track_id'],
  playlist_items: ['playlist_id', 'position'],
  queue_items: ['user_id', 'position'],
  library_files: ['id'],
  now_playing: ['user_id'],
  catalog_aliases: ['id'],
};

export type RowImage = Record<string, unknown>;
type Images = Partial<Record<EditedTable, RowImage[]>>;

/** Stored in catalog_edits.changes: rows as they were before the edit updated or deleted them, and the keys of rows it inserted. */
export interface Changes {
  updated: Images;
  deleted: Images;
  inserted: Images;
}

function add(images: Images, table: EditedTable, rows: RowImage[]): void {
  if (rows.length) images[table] = [...(images[table] ?? []), ...rows];
}

/** 'table:key' for a row: what catalog_edits.touched holds, to find later edits of the same rows. */
export const touchedKey = (table: EditedTable, row: RowImage) => `${table}:${KEYS[table].map((key) => String(row[key])).join('/')}`;

const keyMatch = (table: EditedTable, left: string, right: string) =>
  sql.join(
    KEYS[table].map((key) => sql`${sql.ref(`${left}.${key}`)} = ${sql.ref(`${right}.${key}`)}`),
    sql` and `,
  );

export class EditRecorder {
  readonly changes: Changes = { updated: {}, deleted: {}, inserted: {} };
  /** Rows already captured as updated: a row's first image is the one from before the edit. */
  private readonly updatedKeys = new Set<string>();
  constructor(private readonly tx: Tx) {}

  /** Updates the rows of `table` (aliased `o` in `where`) with `set`, returning their images from before. */
  async update(table: EditedTable, where: RawBuilder<unknown>, set: RawBuilder<unknown>): Promise<RowImage[]> {
    const keys = sql.join(KEYS[table].map((key) => sql.ref(`o.${key}`)));
    // The CTE locks and captures exactly the rows the update then changes, in one statement.
    const { rows } = await sql<{ row: RowImage }>`with b as (select ${keys}, to_jsonb(o) as row from ${sql.table(table)} o where ${where} for update)
      update ${sql.table(table)} t set ${set} from b where ${keyMatch(table, 't', 'b')} returning b.row`.execute(this.tx);
    const images = rows.map((row) => row.row);
    const first = images.filter((row) => !this.updatedKeys.has(touchedKey(table, row)));
    for (const row of first) this.updatedKeys.add(touchedKey(table, row));
    add(this.changes.updated, table, first);
    return images;
  }

  /** Deletes the rows of `table` (aliased `o` in `where`), returning their images. */
  async delete(table: EditedTable, where: RawBuilder<unknown>): Promise<RowImage[]> {
    const { rows } = await sql<{ row: RowImage }>`delete from ${sql.table(table)} o where ${where} returning to_jsonb(o) as row`.execute(this.tx);
    const images = rows.map((row) => row.row);
    add(this.changes.deleted, table, images);
    return images;
  }

  /** Records rows the edit inserted (their key columns at least), for undo to delete. */
  inserted(table: EditedTable, rows: RowImage[]): void {
    add(this.changes.inserted, table, rows);
  }

  /** Every row the edit wrote. */
  touched(): string[] {
    const keys = new Set<string>();
    for (const images of [this.changes.updated, this.changes.deleted, this.changes.inserted]) {
      for (const table of EDITED_TABLES) for (const row of images[table] ?? []) keys.add(touchedKey(table, row));
    }
    return [...keys];
  }
}

/** Columns of `table` that can be written (generated ones, like `uri`, cannot). */
async function writableColumns(tx: Tx, table: EditedTable): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`.execute(tx);
  return rows.map((row) => row.column_name);
}

const recordset = (table: EditedTable, rows: RowImage[]) => sql`jsonb_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::jsonb)`;

/**
 * Puts the catalog back as `changes` found it: rows the edit inserted are deleted, rows it
 * deleted come back (parents first, so references hold), rows it updated get their old values.
 * A row deleted since (a play removed by its owner) stays deleted.
 */
export async function restore(tx: Tx, changes: Changes): Promise<void> {
  for (const table of [...EDITED_TABLES].reverse()) {
    const rows = changes.inserted[table];
    if (rows?.length) await sql`delete from ${sql.table(table)} t using ${recordset(table, rows)} r where ${keyMatch(table, 't', 'r')}`.execute(tx);
  }
  for (const table of EDITED_TABLES) {
    const rows = changes.deleted[table];
    if (!rows?.length) continue;
    const columns = sql.join((await writableColumns(tx, table)).map((column) => sql.ref(column)));
    await sql`insert into ${sql.table(table)} (${columns}) select ${columns} from ${recordset(table, rows)} on conflict do nothing`.execute(tx);
  }
  for (const table of EDITED_TABLES) {
    const rows = changes.updated[table];
    if (!rows?.length) continue;
    const set = sql.join((await writableColumns(tx, table)).map((column) => sql`${sql.ref(column)} = ${sql.ref(`r.${column}`)}`));
    await sql`update ${sql.table(table)} t set ${set} from ${recordset(table, rows)} r where ${keyMatch(table, 't', 'r')}`.execute(tx);
  }
}
