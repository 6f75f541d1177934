import { sql, type RawBuilder } from 'kysely';
import { queuedRows } from './reads.ts';

/**
 * A user's most played tracks of all time without reading every track total they have: the
 * totals in play order (stats_track_totals_top_idx, migration 0029) read to the page's end, and the
 * few tracks with changes still queued (the fold keeps the queue to about a second's worth) counted
 * as every all-time read counts them (reads.ts). A track without queued changes has its total as
 * its count, so the first `count` of those, by (plays desc, track_id), plus the queued ones hold
 * the first `count` of all: ~1 ms where summing and sorting 35k totals took ~300 ms.
 */

/**
 * Common tables `queued` (track_id, delta: the user's queued changes summed per track) and
 * `requeued` (track_id, plays: those tracks' all-time counts, totals included).
 */
function queuedTracks(userId: string) {
  return sql`queued as materialized (select track_id, sum(delta)::int as delta from (${queuedRows(userId)}) q group by 1),
    requeued as materialized (
      select q.track_id, q.delta + coalesce((select tt.plays from stats_track_totals tt where tt.user_id = ${userId} and tt.track_id = q.track_id), 0) as plays
      from queued q
    )`;
}

/** The user's totals of tracks without queued changes, which are their counts. */
const settled = (userId: string) => sql`stats_track_totals where user_id = ${userId} and track_id not in (select track_id from queued)`;

/**
 * (track_id, plays) of the `count` tracks `userId` played most of all time, most played first, the
 * id breaking ties (as the top lists order them): what trackPlays(userId, ALL_TIME) holds, first
 * `count` rows only. Every row is a track in `tracks`: a track has plays only while scrobbles,
 * which reference it, do.
 */
export function topTrackPlays(userId: string, count: number): RawBuilder<{ track_id: string; plays: number }> {
  return sql`with ${queuedTracks(userId)}
    select track_id, plays from (
      (select track_id, plays from ${settled(userId)} order by plays desc, track_id limit ${count})
      union all
      select track_id, plays from requeued
    ) counted where plays > 0 order by plays desc, track_id limit ${count}`;
}

/** How many tracks `userId` played of all time: the rows of trackPlays(userId, ALL_TIME), counted off the same index. */
export function playedTrackCount(userId: string): RawBuilder<{ n: number }> {
  return sql`with ${queuedTracks(userId)}
    select ((select count(*) from ${settled(userId)} and plays > 0) + (select count(*) from requeued where plays > 0))::int as n`;
}
