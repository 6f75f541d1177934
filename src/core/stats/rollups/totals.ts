import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { queuedChanges } from './reads.ts';

/**
 * Catalog play counts and listeners from the all-time totals: the stats_track_totals rollup plus
 * the changes still queued (by the rule of reads.ts), so search ranking, getSongs' playCount sort
 * and filter, and artist and album pages never count plays at request time. The queue has no
 * index and may hold a bulk import's rows until folded, so it is read once per query, summed and
 * joined (a hash), never scanned once per row.
 */

/** Which tracks to count: a condition on the column `track_id` of the rows read. */
export type TrackMatch = RawBuilder<SqlBool>;

/** Everyone's queued changes summed per track, (id, plays): to left join once per query; PostgreSQL drops the join where nothing reads it. */
export const queuedPerTrack = () =>
  sql<{ id: string; plays: number }>`(select track_id as id, sum(delta)::int as plays from (${queuedChanges()}) q group by 1)`;

/** The same per artist or album, (id, plays). */
export const queuedPerGroup = (column: 'artist_id' | 'album_id') =>
  sql<{ id: string; plays: number }>`(select ${sql.ref(`qt.${column}`)} as id, sum(q.delta)::int as plays
    from (${queuedChanges()}) q join tracks qt on qt.id = q.track_id group by 1)`;

/**
 * Everyone's plays of the tracks `tracks` matches, to sort and filter by (a bigint, as count(*) is):
 * stats_catalog_plays (one row a track, the sum of the per-user totals) plus `queued`, the plays
 * column of a queuedPerTrack or queuedPerGroup joined to the row.
 */
export const allTimePlayCount = (tracks: TrackMatch, queued: string) =>
  sql<number>`((select coalesce(sum(plays), 0) from stats_catalog_plays where ${tracks}) + coalesce(${sql.ref(queued)}, 0))`;

/**
 * The queued changes of a page's tracks, summed per (user, track): a common table named
 * queued_plays, read once per query; `tracks` selects the ids of the tracks the page shows.
 */
export const queuedPlaysOf = (tracks: RawBuilder<unknown>) =>
  sql`queued_plays as materialized (select user_id, track_id, sum(delta)::int as plays from (${queuedChanges()}) q where track_id in (${tracks}) group by 1, 2)`;

/** (play_count, unique_listeners) of the tracks `tracks` matches, by everyone (a listener is a user with plays of any of them); needs queuedPlaysOf. */
export function allTimePlayStats(tracks: TrackMatch): RawBuilder<{ play_count: number; unique_listeners: number }> {
  return sql`select coalesce(sum(plays), 0)::int as play_count, count(*) filter (where plays > 0)::int as unique_listeners
    from (select user_id, sum(plays) as plays from (
      select user_id, plays from stats_track_totals where ${tracks} union all select user_id, plays from queued_plays where ${tracks}
    ) totals group by user_id) listeners`;
}
