import { sql, type Transaction } from 'kysely';
import { inTransaction, type Database, type DB } from '../../toolkit/db/index.ts';
import { invalidParameter } from './errors.ts';
import { knownSongs } from './known-ids.ts';
import { checkLimit, MAX_QUEUE_SONGS } from './limits.ts';
import { countRows, insertAt, queueList, removeAt, replaceRows } from './ordered-rows.ts';
import { songViews, type SongView } from './views.ts';

/**
 * The user's one play queue, shared by both doors: Subsonic's getPlayQueue/savePlayQueue and the
 * XRPC player operations read and write the same rows (queue_items, and play_queues for where
 * playback stands). Every change locks the user's play_queues row first, so two clients changing
 * the queue at once take turns, and checks everything before it writes.
 */

/** Where the queue stands, without its songs: what the XRPC player operations answer after a change. */
export interface QueueSummary {
  /** How many songs the queue holds. */
  songCount: number;
  /** The current song's id (Subsonic's `current`). */
  current?: string;
  /** The current song's index in the queue: the same song may be queued more than once. */
  currentIndex?: number;
  /** Milliseconds into the current song. */
  position: number;
  username: string;
  changed: string;
  /** The client that last changed the queue. */
  changedBy: string;
}

/** The summary with a page of the songs: `entry[0]` is the song at index `offset`. */
export interface PlayQueue extends QueueSummary {
  offset: number;
  entry: SongView[];
}

type Tx = Transaction<DB>;

interface QueueState {
  length: number;
  current: number | null;
  positionMs: number;
}

/** Locks the user's queue (creating its row on first use) and reads where it stands. */
async function lockQueue(tx: Tx, userId: string): Promise<QueueState> {
  await tx
    .insertInto('play_queues')
    .values({ user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await tx.selectFrom('play_queues').select(['current', 'position_ms']).where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  return { length: await countRows(tx, queueList(userId)), current: row.current, positionMs: Number(row.position_ms) };
}

/** Records where playback stands after a change, and who made it; no current song means no position in it. */
async function setPlayback(tx: Tx, userId: string, current: number | null, positionMs: number, client: string): Promise<void> {
  await tx
    .updateTable('play_queues')
    .set({ current, position_ms: current === null ? 0 : positionMs, changed_by: client, changed_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .execute();
}

const checkQueueSize = (count: number) => checkLimit('the play queue', MAX_QUEUE_SONGS, count);

/** Where the user's queue stands; an empty queue if they never had one. */
export async function queueSummary(db: Database, userId: string): Promise<QueueSummary> {
  const [user, row, songCount] = await Promise.all([
    db.selectFrom('users').select('handle').where('id', '=', userId).executeTakeFirstOrThrow(),
    db
      .selectFrom('play_queues as q')
      .leftJoin('queue_items as i', (join) => join.onRef('i.user_id', '=', 'q.user_id').onRef('i.position', '=', 'q.current'))
      .select(['q.current', 'q.position_ms', 'q.changed_by', 'q.changed_at', 'i.track_id'])
      .where('q.user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('queue_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    songCount: Number(songCount.n),
    ...(row?.current == null || !row.track_id ? {} : { current: row.track_id, currentIndex: row.current }),
    position: Number(row?.position_ms ?? 0),
    username: user.handle,
    changed: (row?.changed_at ?? new Date(0)).toISOString(),
    changedBy: row?.changed_by ?? '',
  };
}

/** The user's queue with `limit` of its songs from index `offset`. */
export async function getQueue(db: Database, userId: string, page: { offset: number; limit: number }): Promise<PlayQueue> {
  const items = db
    .selectFrom('queue_items')
    .select('track_id')
    .where('user_id', '=', userId)
    .where('position', '>=', page.offset)
    .orderBy('position')
    .limit(page.limit);
  const [summary, rows] = await Promise.all([queueSummary(db, userId), items.execute()]);
  return {
    ...summary,
    offset: page.offset,
    entry: await songViews(
      db,
      userId,
      rows.map((row) => row.track_id),
    ),
  };
}

export interface SavedQueue {
  songIds: readonly string[];
  /** The current song's id; its first occurrence in `songIds` becomes current. */
  current?: string | undefined;
  /** Instead of `current`: the current song's index in `songIds`, which tells a song queued twice apart. */
  currentIndex?: number | undefined;
  positionMs?: number | undefined;
}

/** Replaces the whole queue (Subsonic's savePlayQueue); no songs clears it. */
export async function saveQueue(db: Database, userId: string, saved: SavedQueue, client: string): Promise<void> {
  const positionMs = saved.positionMs ?? 0;
  if (!Number.isInteger(positionMs) || positionMs < 0) throw invalidParameter('position must be a whole number of milliseconds, not negative');
  checkQueueSize(saved.songIds.length);
  await inTransaction(db, async (tx) => {
    await lockQueue(tx, userId);
    const songs = await knownSongs(tx, saved.songIds);
    const wanted = saved.current?.toLowerCase();
    const current = saved.currentIndex ?? (wanted === undefined ? -1 : songs.indexOf(wanted));
    if (wanted !== undefined && current < 0) throw invalidParameter(`current ${saved.current} is not one of the queued songs`);
    if (saved.currentIndex !== undefined) checkIndex(saved.currentIndex, songs.length - 1, songs.length);
    await replaceRows(
      tx,
      queueList(userId),
      songs.map((track_id) => ({ track_id })),
    );
    await setPlayback(tx, userId, current < 0 ? (songs.length > 0 ? 0 : null) : current, positionMs, client);
  });
}

/** Refuses an index outside 0..`last` of a queue of `length` songs. */
function checkIndex(index: number, last: number, length: number): void {
  if (!Number.isInteger(index) || index < 0 || index > last) throw invalidParameter(`position ${index} is out of range: the queue has ${length} songs`);
}

/**
 * Inserts songs at `position` (default: the end); the current song stays current. A queue that
 * would outgrow its limit is refused whole.
 */
export async function insertIntoQueue(tx: Tx, userId: string, songIds: readonly string[], position: number | undefined, client: string): Promise<number> {
  const state = await lockQueue(tx, userId);
  const at = position ?? state.length;
  checkIndex(at, state.length, state.length);
  checkQueueSize(state.length + songIds.length);
  const songs = await knownSongs(tx, songIds);
  await insertAt(
    tx,
    queueList(userId),
    at,
    songs.map((track_id) => ({ track_id })),
  );
  const current = state.current !== null && state.current >= at ? state.current + songs.length : state.current;
  await setPlayback(tx, userId, current, state.positionMs, client);
  return at;
}

/** addItemsToQueue: songs inserted at `position` (default: the end); answers where they went. */
export async function addToQueue(db: Database, userId: string, songIds: readonly string[], position: number | undefined, client: string): Promise<number> {
  return inTransaction(db, (tx) => insertIntoQueue(tx, userId, songIds, position, client));
}

/**
 * Removes the items at `positions` (indexes in the queue before the removal). The current song
 * stays current if it remains; removing it leaves no current song.
 */
export async function removeFromQueue(db: Database, userId: string, positions: readonly number[], client: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const state = await lockQueue(tx, userId);
    for (const index of positions) checkIndex(index, state.length - 1, state.length);
    const removed = [...new Set(positions)];
    await removeAt(tx, queueList(userId), removed);
    const current = state.current === null || removed.includes(state.current) ? null : state.current - removed.filter((index) => index < state.current!).length;
    await setPlayback(tx, userId, current, state.positionMs, client);
  });
}

/** Empties the queue. */
export async function clearQueue(db: Database, userId: string, client: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await lockQueue(tx, userId);
    await replaceRows(tx, queueList(userId), []);
    await setPlayback(tx, userId, null, 0, client);
  });
}
