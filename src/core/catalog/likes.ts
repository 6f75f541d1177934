import { sql, type Expression, type RawBuilder, type Transaction } from 'kysely';
import type { Database, DB } from '../../toolkit/db/index.ts';
import type { LoveChange } from '../relay/forward.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';

/**
 * SQL for a song's likes, to embed in any query that has a track id column
 * (e.g. `sql.ref('s.track_id')`). Likes are rows of `stars` with subject kind
 * 'song'; both fragments are index lookups (stars_subject_idx, the primary key).
 */

/** How many users like the song: an integer. */
export function songLikesCount(trackId: Expression<unknown>): RawBuilder<number> {
  return sql<number>`(select count(*)::int from stars where subject_kind = 'song' and subject_id = ${trackId})`;
}

/** Whether `viewerId` likes the song; always false without a viewer. */
export function songLiked(trackId: Expression<unknown>, viewerId: string | null | undefined): RawBuilder<boolean> {
  if (!viewerId) return sql<boolean>`false`;
  return sql<boolean>`exists (select 1 from stars where user_id = ${viewerId} and subject_kind = 'song' and subject_id = ${trackId})`;
}

type Writer = Database | Transaction<DB>;

/**
 * Records that `userId` likes the song (a `stars` row); liking it again changes nothing. A change
 * is the user's webhooks' `love` event, in the caller's transaction, and is answered so the caller
 * forwards it to the relay targets once committed (relay/forward.ts forwardLove); null: no change.
 */
export async function likeSong(db: Writer, userId: string, trackId: string): Promise<LoveChange | null> {
  const added = await db
    .insertInto('stars')
    .values({ user_id: userId, subject_kind: 'song', subject_id: trackId })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute();
  if (added.length === 0) return null;
  await enqueueWebhookEvent(db, userId, { kind: 'love', trackId, loved: true });
  return { trackId, loved: true };
}

/** Forgets that `userId` likes the song; unliking a song not liked changes nothing. A change is answered as likeSong's is. */
export async function unlikeSong(db: Writer, userId: string, trackId: string): Promise<LoveChange | null> {
  const removed = await db
    .deleteFrom('stars')
    .where('user_id', '=', userId)
    .where('subject_kind', '=', 'song')
    .where('subject_id', '=', trackId)
    .executeTakeFirst();
  if (removed.numDeletedRows === 0n) return null;
  await enqueueWebhookEvent(db, userId, { kind: 'love', trackId, loved: false });
  return { trackId, loved: false };
}
