/**
 * Statistics reads that never pay for a big queue. stats_queue has no index (an index cost imports
 * a tenth of their rate, see migration 0012), so reading a user's queued plays scans all of it:
 * after a bulk import, 1.1M rows took 136-173 ms per read, and a drained queue still ~85 ms until
 * vacuumed (PGlite never vacuums). Two remedies, chosen over a partial or BRIN index (either is
 * paid per play, and a bulk import's rows are interleaved with everyone's live ones):
 *
 * - stats_queue_users (migration 0020) counts each user's queued rows, kept by the same statement
 *   triggers in the writer's transaction (one row touched per user and statement, not per play),
 *   and counted down here by the fold in its own. Queue and count so agree in every snapshot, so a
 *   read gates its queue scan on the count (`anyQueued`): a user with nothing queued reads no
 *   queue at all, whatever others have queued, and a play still counts the moment it is stored.
 *   The span of each user's queued times is kept the same way (migration 0031), so a window read
 *   also skips the queue when none of the user's queued plays can fall in its window: after a bulk
 *   import of older plays, the recent windows of a profile page read no queue.
 *   A flag beside them (migration 0034) tells whether any of the user's queued rows may take plays
 *   away, so a read of only those (Wrapped's lower bound for new artists) skips the queue after an
 *   import, whose rows all add plays.
 * - Once nothing is queued, the fold truncates a queue grown past RECLAIM_BYTES (`reclaimQueue`),
 *   so a user who does have a play queued scans a few pages, not a drained import's dead rows.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database, DB } from '../../../toolkit/db/index.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';

/** The queue's size above which an empty queue is truncated: a scan of this much costs about a millisecond. */
const RECLAIM_BYTES = 1024 * 1024;

/**
 * True when `userId` (or, with null, anyone) has rows queued, or with `span`, may have rows queued
 * listened in [from, to): the span kept beside the count (migration 0031) bounds the queued times;
 * with `leaving`, rows taking plays away (the flag beside the count, migration 0034).
 * Uncorrelated, so PostgreSQL evaluates it once as a gate on the queue's scan and skips the scan
 * when it is false.
 */
export const anyQueued = (userId: string | null, span?: { from: Date; to: Date }, leaving = false): RawBuilder<boolean> => {
  const conditions = [
    ...(userId === null ? [] : [sql`user_id = ${userId}`]),
    ...(span ? [sql`last_at >= ${span.from.toISOString()}::timestamptz and first_at < ${span.to.toISOString()}::timestamptz`] : []),
    ...(leaving ? [sql`leaving`] : []),
  ];
  return sql`exists (select 1 from stats_queue_users${conditions.length === 0 ? sql`` : sql` where ${sql.join(conditions, sql` and `)}`})`;
};

/**
 * True when `userId` (or, with null, anyone) has queued rows the all-time totals do not count yet
 * (totals-ahead.ts): the gate of the all-time reads' queue scan, which is skipped once the step
 * ahead of the fold has totalled a bulk import, however much of it is left to fold.
 */
export const anyUntotalled = (userId: string | null): RawBuilder<boolean> =>
  sql`exists (select 1 from stats_queue_users where ${userId === null ? sql`true` : sql`user_id = ${userId}`} and queued > totalled)`;

/** Rows taken per user from the queue by a fold or the step ahead of it, as a JSON recordset `z`. */
const takenRecordset = (rows: object[], columns: RawBuilder<unknown>) => sql`json_to_recordset(${JSON.stringify(rows)}::json) z ${columns}`;

/**
 * Locks the per-user counts of the users in `taken` in key order, as the triggers upsert them, so
 * folds, the step ahead of the fold and writers never deadlock on them.
 */
const lockCounts = (tx: Transaction<DB>, taken: RawBuilder<unknown>) =>
  sql`select 1 from stats_queue_users where user_id in (select user_id from ${taken}) order by user_id for update`.execute(tx);

/**
 * Counts down what one fold took (rows per user, and how many of them were totalled), in the fold's
 * transaction, the rows locked first (lockCounts); a count that reaches zero goes (the check keeps
 * it positive). Were the count ever short (the triggers disabled by hand), it goes rather than
 * block the fold on the check.
 */
export async function countDown(tx: Transaction<DB>, takenByUser: { user_id: string; taken: number; totalled: number }[] | null): Promise<void> {
  if (!takenByUser) return;
  const taken = takenRecordset(takenByUser, sql`(user_id uuid, taken bigint, totalled bigint)`);
  await lockCounts(tx, taken);
  await sql`delete from stats_queue_users m using ${taken} where m.user_id = z.user_id and m.queued <= z.taken`.execute(tx);
  await sql`update stats_queue_users m set queued = m.queued - z.taken, totalled = greatest(0, least(m.queued - z.taken, m.totalled - z.totalled))
    from ${taken} where m.user_id = z.user_id and m.queued > z.taken`.execute(tx);
}

/** Adds what one step ahead of the fold marked (rows per user) to each user's count of totalled rows, the rows locked first (lockCounts). */
export async function countTotalled(tx: Transaction<DB>, takenByUser: { user_id: string; taken: number }[] | null): Promise<void> {
  if (!takenByUser) return;
  const taken = takenRecordset(takenByUser, sql`(user_id uuid, taken bigint)`);
  await lockCounts(tx, taken);
  await sql`update stats_queue_users m set totalled = least(m.queued, m.totalled + z.taken) from ${taken} where m.user_id = z.user_id`.execute(tx);
}

/**
 * Truncates the queue when it is empty and has grown past RECLAIM_BYTES of (dead) rows; answers
 * whether it did. Done once however many processes fold: the lock is taken with NOWAIT, so it is
 * only had while no writer, reader or other fold uses the queue (they wait for the truncate, a few
 * milliseconds), and a process that cannot have it leaves the work to a later turn (PostgreSQL's
 * autovacuum reclaims the space meanwhile). Under that lock every writer has committed, so the
 * queue read afresh is all there is; it is checked itself, not only its count, since a truncate is
 * final. No transaction here reads the statistics with an older snapshot (all read committed),
 * which is what makes TRUNCATE, not MVCC-safe, safe.
 */
export async function reclaimQueue(db: Database): Promise<boolean> {
  const { rows } = await sql<{ bytes: string }>`select pg_relation_size('stats_queue') as bytes`.execute(db);
  if (Number(rows[0]!.bytes) <= RECLAIM_BYTES) return false;
  return asHeavyWork(() =>
    db
      .transaction()
      .execute(async (tx) => {
        await sql`lock table stats_queue in access exclusive mode nowait`.execute(tx);
        const { rows: queued } = await sql<{
          any: boolean;
        }>`select exists (select 1 from stats_queue_users) or exists (select 1 from stats_queue) as any`.execute(tx);
        if (queued[0]!.any) return false;
        await sql`truncate stats_queue`.execute(tx);
        return true;
      })
      .catch((error: unknown) => {
        // lock_not_available: another process holds the queue; a later turn tries again.
        if ((error as { code?: string }).code === '55P03') return false;
        throw error;
      }),
  );
}
