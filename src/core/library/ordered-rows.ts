import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../toolkit/db/index.ts';

/**
 * A list kept as rows numbered 0, 1, 2… in `position`: a user's play queue (queue_items, by
 * user_id) or one playlist (playlist_items, by playlist_id). Edits touch only the rows they must:
 * an insertion moves the rows after it, a removal deletes its rows and moves those after the first
 * removed, so adding to the end of a long list writes only the new rows.
 */
export interface OrderedList {
  table: 'queue_items' | 'playlist_items';
  key: 'user_id' | 'playlist_id';
  id: string;
  /** The owner, stored on every row. */
  userId: string;
}

export const queueList = (userId: string): OrderedList => ({ table: 'queue_items', key: 'user_id', id: userId, userId });
export const playlistList = (playlistId: string, userId: string): OrderedList => ({ table: 'playlist_items', key: 'playlist_id', id: playlistId, userId });

type Tx = Transaction<DB>;

export interface Row {
  track_id: string;
  added_at?: Date;
}

/** Rows per INSERT, well under PostgreSQL's bind parameter limit. */
const INSERT_CHUNK = 2000;

/**
 * Where rows wait while the rows before them change. The primary key (owner, position) is checked
 * row by row, so shifting rows in place would collide with their neighbours; parked far above any
 * real position (every list is far shorter), they are numbered back in without a collision.
 */
const PARKED = 1_000_000_000;

const owned = (list: OrderedList) => sql`${sql.ref(list.key)} = ${list.id}`;

export async function countRows(tx: Tx, list: OrderedList): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(list.table)} where ${owned(list)}`.execute(tx);
  return rows[0]!.n;
}

/** Moves the rows from position `from` on out of the way (above PARKED), in their order. */
async function park(tx: Tx, list: OrderedList, from: number): Promise<void> {
  await sql`update ${sql.table(list.table)} set position = position + ${PARKED} where ${owned(list)} and position >= ${from}`.execute(tx);
}

/** A parked row's position before it was parked. */
const OLD = sql`(position - ${PARKED})`;

/** Moves the parked rows back in, each to `target`: an expression of its position before (OLD). */
async function unpark(tx: Tx, list: OrderedList, target: RawBuilder<unknown>): Promise<void> {
  await sql`update ${sql.table(list.table)} set position = ${target} where ${owned(list)} and position >= ${PARKED}`.execute(tx);
}

async function insertRows(tx: Tx, list: OrderedList, at: number, rows: readonly Row[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const values = rows.slice(start, start + INSERT_CHUNK).map((row, i) => ({ [list.key]: list.id, user_id: list.userId, position: at + start + i, ...row }));
    // The two tables' rows differ only in the owner column, which `list.key` names.
    await tx
      .insertInto(list.table)
      .values(values as never)
      .execute();
  }
}

/** Inserts `rows` at index `at` (0 to the list's length); the rows from `at` on move after them. */
export async function insertAt(tx: Tx, list: OrderedList, at: number, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  await park(tx, list, at);
  await insertRows(tx, list, at, rows);
  await unpark(tx, list, sql`${OLD} + ${rows.length}`);
}

/** Removes the rows at the indexes (distinct, each one in the list); the rows after the first removed close the gaps. */
export async function removeAt(tx: Tx, list: OrderedList, indexes: readonly number[]): Promise<void> {
  if (indexes.length === 0) return;
  await sql`delete from ${sql.table(list.table)} where ${owned(list)} and position in (${sql.join(indexes)})`.execute(tx);
  const sorted = [...indexes].sort((a, b) => a - b);
  await park(tx, list, sorted[0]!);
  // width_bucket counts the removed indexes below a row's (a binary search): how far it moves down.
  await unpark(tx, list, sql`${OLD} - width_bucket(${OLD}, array[${sql.join(sorted)}]::int[])`);
}

/** Replaces every row: a whole new list (Subsonic's savePlayQueue, a playlist's songs replaced). */
export async function replaceRows(tx: Tx, list: OrderedList, rows: readonly Row[]): Promise<void> {
  await sql`delete from ${sql.table(list.table)} where ${owned(list)}`.execute(tx);
  await insertRows(tx, list, 0, rows);
}
