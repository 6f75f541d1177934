import { sql, type Transaction } from 'kysely';
import { inTransaction, type Database, type DB } from '../db/index.ts';
import { invalidParameter } from './errors.ts';
import { knownSongs } from './known-ids.ts';
import { songViews, type SongView } from './views.ts';

/**
 * The user's one play queue, shared by both doors: Subsonic's getPlayQueue/savePlayQueue and the
 * XRPC player operations read and write the same rows (queue_items, and play_queues for where
 * playback stands). Every change locks the user's play_queues row first, so two clients changing
 * the queue at once take turns, and checks everything before it writes.
 */

export interface PlayQueue {
  entry: SongView[];
  /** The current song's id (Subsonic's `current`). */
  current?: string;
  /** The current song's index in `entry`: the same song may be queued more than once. */
  currentIndex?: number;
  /** Milliseconds into the current song. */
  position: number;
  username: string;
  changed: string;
  /** The client that last changed the queue. */
  changedBy: string;
}

type Tx = Transaction<DB>;

interface QueueState {
  items: { track_id: string; added_at?: Date }[];
  current: number | null;
  positionMs: number;
}

/** Locks the user's queue (creating its row on first use) and reads it. */
async function lockQueue(tx: Tx, userId: string): Promise<QueueState> {
  await tx.insertInto('play_queues').values({ user_id: userId }).onConflict((oc) => oc.doNothing()).execute();
  const row = await tx.selectFrom('play_queues').select(['current', 'position_ms']).where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  const items = await tx.selectFrom('queue_items').select(['track_id', 'added_at']).where('user_id', '=', userId).orderBy('position').execute();
  return { items, current: row.current, positionMs: Number(row.position_ms) };
}

const INSERT_CHUNK = 2000;

/** Writes the queue whole: items renumbered from 0, the current index kept only if it still points at an item. */
async function writeQueue(tx: Tx, userId: string, state: QueueState, client: string): Promise<void> {
  await tx.deleteFrom('queue_items').where('user_id', '=', userId).execute();
  for (let start = 0; start < state.items.length; start += INSERT_CHUNK) {
    const rows = state.items.slice(start, start + INSERT_CHUNK).map((item, i) => ({ user_id: userId, position: start + i, ...item }));
    await tx.insertInto('queue_items').values(rows).execute();
  }
  const current = state.current !== null && state.current < state.items.length ? state.current : null;
  await tx
    .updateTable('play_queues')
    .set({ current, position_ms: current === null ? 0 : state.positionMs, changed_by: client, changed_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .execute();
}

/** Runs `change` on the locked queue and writes what it answers, in one transaction. */
async function changeQueue(db: Database, userId: string, client: string, change: (state: QueueState, tx: Tx) => Promise<QueueState>): Promise<void> {
  await inTransaction(db, async (tx) => writeQueue(tx, userId, await change(await lockQueue(tx, userId), tx), client));
}

/** The user's queue; an empty one if they never had one. */
export async function getQueue(db: Database, userId: string): Promise<PlayQueue> {
  const [user, row, items] = await Promise.all([
    db.selectFrom('users').select('handle').where('id', '=', userId).executeTakeFirstOrThrow(),
    db.selectFrom('play_queues').select(['current', 'position_ms', 'changed_by', 'changed_at']).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('queue_items').select('track_id').where('user_id', '=', userId).orderBy('position').execute(),
  ]);
  const entry = await songViews(db, userId, items.map((item) => item.track_id));
  const current = row?.current ?? null;
  return {
    entry,
    ...(current === null || !entry[current] ? {} : { current: entry[current].id, currentIndex: current }),
    position: Number(row?.position_ms ?? 0),
    username: user.handle,
    changed: (row?.changed_at ?? new Date(0)).toISOString(),
    changedBy: row?.changed_by ?? '',
  };
}

export interface SavedQueue {
  songIds: readonly string[];
  /** The current song's id; its first occurrence in `songIds` becomes current. */
  current?: string | undefined;
  positionMs?: number | undefined;
}

/** Replaces the whole queue (Subsonic's savePlayQueue); no songs clears it. */
export async function saveQueue(db: Database, userId: string, saved: SavedQueue, client: string): Promise<void> {
  const positionMs = saved.positionMs ?? 0;
  if (!Number.isInteger(positionMs) || positionMs < 0) throw invalidParameter('position must be a whole number of milliseconds, not negative');
  await changeQueue(db, userId, client, async (_, tx) => {
    const songs = await knownSongs(tx, saved.songIds);
    const wanted = saved.current?.toLowerCase();
    const current = wanted === undefined ? -1 : songs.indexOf(wanted);
    if (wanted !== undefined && current < 0) throw invalidParameter(`current ${saved.current} is not one of the queued songs`);
    return { items: songs.map((track_id) => ({ track_id })), current: current < 0 ? (songs.length > 0 ? 0 : null) : current, positionMs };
  });
}

/** Refuses an index outside 0..`last` of a queue of `length` songs. */
function checkIndex(index: number, last: number, length: number): void {
  if (!Number.isInteger(index) || index < 0 || index > last) throw invalidParameter(`position ${index} is out of range: the queue has ${length} songs`);
}

/** Inserts songs at `position` (default: the end); the current song stays current. */
export async function insertIntoQueue(tx: Tx, userId: string, songIds: readonly string[], position: number | undefined, client: string): Promise<number> {
  const state = await lockQueue(tx, userId);
  const at = position ?? state.items.length;
  checkIndex(at, state.items.length, state.items.length);
  const songs = await knownSongs(tx, songIds);
  const items = [...state.items.slice(0, at), ...songs.map((track_id) => ({ track_id })), ...state.items.slice(at)];
  const current = state.current !== null && state.current >= at ? state.current + songs.length : state.current;
  await writeQueue(tx, userId, { ...state, items, current }, client);
  return at;
}

/** addItemsToQueue: songs inserted at `position` (default: the end). */
export async function addToQueue(db: Database, userId: string, songIds: readonly string[], position: number | undefined, client: string): Promise<void> {
  await inTransaction(db, (tx) => insertIntoQueue(tx, userId, songIds, position, client));
}

/**
 * Removes the items at `positions` (indexes in the queue before the removal). The current song
 * stays current if it remains; removing it leaves no current song.
 */
export async function removeFromQueue(db: Database, userId: string, positions: readonly number[], client: string): Promise<void> {
  await changeQueue(db, userId, client, async (state) => {
    for (const index of positions) checkIndex(index, state.items.length - 1, state.items.length);
    const removed = new Set(positions);
    const current = state.current === null || removed.has(state.current) ? null : state.current - [...removed].filter((index) => index < state.current!).length;
    return { ...state, items: state.items.filter((_, index) => !removed.has(index)), current };
  });
}

/** Empties the queue. */
export async function clearQueue(db: Database, userId: string, client: string): Promise<void> {
  await changeQueue(db, userId, client, async () => ({ items: [], current: null, positionMs: 0 }));
}
