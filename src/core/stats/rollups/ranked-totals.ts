import { sql, type RawBuilder } from 'kysely';
import { pendingGroupChanges, TOTALS } from './groups.ts';
import { queuedPerTrack } from './reads.ts';

/**
 * A user's most played tracks, artists and albums of all time without reading every total they
 * have: each totals table is indexed per user in play order (migration 0029), read to the page's
 * end, and the few entries with changes not in the table yet (still queued, or a track's pending
 * regroup: the fold keeps both to about a second's worth) are counted as every all-time read
 * counts them (reads.ts, groups.ts). An entry without pending changes has its total as its count,
 * so the first `count` of those, by (plays desc, id), plus the pending ones hold the first `count`
 * of all: ~1 ms where summing and sorting a heavy user's 35k track totals took ~300 ms.
 */

export type Ranked = 'track' | 'artist' | 'album';

const TABLES = { track: 'stats_track_totals', ...TOTALS } as const;

/**
 * Common table `queued` (track_id, delta): the user's queued changes summed per track, read once
 * however many of the totals below a statement counts.
 */
const queuedTable = (userId: string) => sql`queued as materialized (${queuedPerTrack(userId)})`;
const QUEUED = sql`select track_id, delta from queued`;

/** (id, plays) changes of the user's totals of `subject` not in the table yet, not summed; id null for a track without that group. */
const pendingChanges = (userId: string, subject: Ranked) => (subject === 'track' ? QUEUED : pendingGroupChanges(userId, subject, QUEUED));

/**
 * Common tables `pending` (id, delta: the pending changes summed per entry) and `repending` (id,
 * plays: those entries' all-time counts, totals included); they read the `queued` table.
 */
function pendingTables(userId: string, subject: Ranked) {
  const key = sql.ref(`x.${subject}_id`);
  return sql`pending as materialized (select id, sum(delta)::int as delta from (${pendingChanges(userId, subject)}) p (id, delta) where id is not null group by 1),
    repending as materialized (
      select p.id, p.delta + coalesce((select x.plays from ${sql.table(TABLES[subject])} x where x.user_id = ${userId} and ${key} = p.id), 0) as plays
      from pending p
    )`;
}

/** The user's totals of entries without pending changes, which are their counts, as `x`. */
const settled = (userId: string, subject: Ranked) =>
  sql`${sql.table(TABLES[subject])} x where x.user_id = ${userId} and ${sql.ref(`x.${subject}_id`)} not in (select id from pending)`;

/**
 * (id, plays) of the `count` tracks, artists or albums `userId` played most of all time, most
 * played first, the id breaking ties (as the top lists order them): what trackPlays or groupPlays
 * hold for the user, first `count` rows only. Every id is in the catalog: an entry has plays only
 * while scrobbles of its tracks do, and they reference their track, which references its groups.
 */
export function topTotals(userId: string, subject: Ranked, count: number): RawBuilder<{ id: string; plays: number }> {
  const key = sql.ref(`x.${subject}_id`);
  return sql`with ${queuedTable(userId)}, ${pendingTables(userId, subject)}
    select id, plays from (
      (select ${key} as id, x.plays from ${settled(userId, subject)} order by x.plays desc, ${key} limit ${count})
      union all
      select id, plays from repending
    ) counted where plays > 0 order by plays desc, id limit ${count}`;
}

/** How many of `subject` the user played, as an expression over pendingTables' tables. */
const playedOf = (userId: string, subject: Ranked) =>
  sql`(select count(*) from ${settled(userId, subject)} and x.plays > 0) + (select count(*) from repending where plays > 0)`;

/** How many tracks, artists or albums `userId` played of all time (the rows of trackPlays or groupPlays), counted off the same index. */
export function playedTotals(userId: string, subject: Ranked): RawBuilder<{ n: number }> {
  return sql`with ${queuedTable(userId)}, ${pendingTables(userId, subject)} select (${playedOf(userId, subject)})::int as n`;
}

/**
 * A user's plays of all time, and how many tracks and artists they played (what a profile shows),
 * in one statement off the totals, where joining every track they played with the catalog read
 * all of `tracks` however large the catalog (20k rows in the bench seed: 22 to 9 ms on PGlite).
 * The queue is read once for both. The tracks are the user's track totals with their queued
 * changes, hashed beside them in one pass (after a bulk import a few thousand tracks have changes,
 * which looked up one by one cost more than the pass); the artists are counted as playedTotals
 * counts them, a user's artists being a few hundred.
 */
export function playedCounts(userId: string): RawBuilder<{ plays: number; tracks: number; artists: number }> {
  return sql`with ${queuedTable(userId)}, ${pendingTables(userId, 'artist')}
    select coalesce(sum(played.plays), 0)::int as plays, count(*) filter (where played.plays > 0)::int as tracks,
      (${playedOf(userId, 'artist')})::int as artists
    from (select coalesce(x.plays, 0) + coalesce(q.delta, 0) as plays
      from (select track_id, plays from stats_track_totals where user_id = ${userId}) x full join queued q on q.track_id = x.track_id) played`;
}
