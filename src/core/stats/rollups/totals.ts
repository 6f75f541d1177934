import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { totalRows } from './reads.ts';

/**
 * Catalog play counts and listeners from the all-time totals (totalRows in reads.ts: the
 * stats_track_totals rollup plus what is still queued), so search ranking, getSongs' playCount
 * sort and filter, and artist and album pages never count plays at request time.
 */

/** Which tracks to count: a condition on the column `track_id` of the rows read. */
export type TrackMatch = RawBuilder<SqlBool>;

/** Everyone's plays of the tracks `tracks` matches, as a scalar subquery (a bigint, as count(*) is) to sort and filter by. */
export const allTimePlayCount = (tracks: TrackMatch) => sql<number>`(select coalesce(sum(plays), 0) from (${totalRows(null, tracks)}) totals)`;

/** (play_count, unique_listeners) of the tracks `tracks` matches, by everyone: a listener is a user with plays of any of them. */
export function allTimePlayStats(tracks: TrackMatch): RawBuilder<{ play_count: number; unique_listeners: number }> {
  return sql`select coalesce(sum(plays), 0)::int as play_count, count(*) filter (where plays > 0)::int as unique_listeners
    from (select user_id, sum(plays) as plays from (${totalRows(null, tracks)}) totals group by user_id) listeners`;
}
