import { sql, type Expression, type RawBuilder } from 'kysely';

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
