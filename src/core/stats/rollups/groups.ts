import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../../../toolkit/db/index.ts';
import { queuedPerTrack } from './reads.ts';

/**
 * All-time plays per user and artist, and per user and album (migration 0023): a user's all-time
 * top artists and albums read one row per artist or album instead of grouping their per-track
 * totals through `tracks` at request time (~350 ms for 35k distinct tracks). And a UTC year's and
 * month's plays per user and artist, album, genre and in all, with their listening time
 * (stats_group_counts, migrations 0032 and 0035, read by window-groups.ts), kept the same way from
 * the yearly and monthly track counts.
 *
 * stats_artist_totals and stats_album_totals hold the sum of stats_track_totals over the tracks
 * that stats_track_groups puts under each artist and album. The fold (fold.ts) adds each batch
 * there in its statement, by stats_track_groups (a track met for the first time gets its row from
 * `tracks`). A catalog edit that moves a track to another artist, album or genre or gives it
 * another duration (a merge, its undo, an edited song or album) does not touch them: a trigger
 * notes the track in stats_regroup, in the edit's transaction, and the next fold moves the track's
 * totals and group counts to its new groups (`regroup`). So edits never wait for the fold nor the
 * fold for an edit, the fold's batches take a lock of their own to run one at a time (FOLD_LOCK),
 * and a read in any snapshot adds up exactly (`groupPlays`).
 */

/** Folds take this advisory lock (an arbitrary constant) for their transaction: a regroup and a batch never interleave. */
export const FOLD_LOCK = 7_326_110_423;

export type Group = 'artist' | 'album';
export const TOTALS = { artist: 'stats_artist_totals', album: 'stats_album_totals' } as const;

/**
 * Moves the totals of the tracks noted in stats_regroup from the groups stats_track_groups names
 * to those `tracks` names now, and answers the group rows counted down to zero (for `tidy`). A
 * track merged away (gone from `tracks`) keeps its groups: its queued removals go where its plays
 * were counted. Raw SQL, as the fold: data-modifying CTEs over the noted tracks.
 */
export async function regroup(tx: Transaction<DB>): Promise<ZeroGroups> {
  const { rows } = await sql<ZeroGroups>`
    with noted as (delete from stats_regroup returning track_id),
    moved as (
      select g.track_id, g.artist_id as old_artist, g.album_id as old_album, g.genre as old_genre, g.duration as old_duration,
        c.artist_id as new_artist, c.album_id as new_album, c.genre as new_genre, c.duration as new_duration
      from stats_track_groups g join ${catalogGroups} c on c.track_id = g.track_id
      where g.track_id in (select track_id from noted)
        and (g.artist_id, g.album_id, g.genre, g.duration) is distinct from (c.artist_id, c.album_id, c.genre, c.duration)
    ),
    regrouped as (
      update stats_track_groups g set artist_id = m.new_artist, album_id = m.new_album, genre = m.new_genre, duration = m.new_duration
      from moved m where g.track_id = m.track_id
    ),
    changes as (
      select tt.user_id, x.artist_id, x.album_id, x.sign * tt.plays as plays
      from moved m join stats_track_totals tt on tt.track_id = m.track_id
      cross join lateral (values (m.old_artist, m.old_album, -1), (m.new_artist, m.new_album, 1)) x (artist_id, album_id, sign)
    ),
    artists as (
      insert into stats_artist_totals (user_id, artist_id, plays)
      select user_id, artist_id, sum(plays) from changes where artist_id is not null group by 1, 2 having sum(plays) <> 0 order by 1, 2
      on conflict (user_id, artist_id) do update set plays = stats_artist_totals.plays + excluded.plays
      returning user_id, artist_id as id, plays
    ),
    albums as (
      insert into stats_album_totals (user_id, album_id, plays)
      select user_id, album_id, sum(plays) from changes where album_id is not null group by 1, 2 having sum(plays) <> 0 order by 1, 2
      on conflict (user_id, album_id) do update set plays = stats_album_totals.plays + excluded.plays
      returning user_id, album_id as id, plays
    ),
    -- The track's yearly and monthly counts, taken off the group counts of its old groups and added to its new ones.
    group_moves as (
      select c.user_id, c.grain, c.period_start, d.dim, d.key, x.sign * c.plays as plays, x.sign * c.measured as measured,
        x.sign * c.played_ms as played_ms, x.sign * coalesce(x.duration::bigint * (c.plays - c.measured), 0) as unmeasured_ms
      from moved m join stats_track_counts c on c.track_id = m.track_id and c.grain in ('y', 'm')
      cross join lateral (values (m.old_artist, m.old_album, m.old_genre, m.old_duration, -1), (m.new_artist, m.new_album, m.new_genre, m.new_duration, 1))
        x (artist_id, album_id, genre, duration, sign)
      cross join lateral ${groupDims(sql`x`)}
      where d.key is not null
    ),
    group_counts as (
      insert into stats_group_counts (user_id, grain, period_start, dim, key, plays, measured, played_ms, unmeasured_ms)
      select user_id, grain, period_start, dim, key, sum(plays), sum(measured), sum(played_ms), sum(unmeasured_ms) from group_moves group by 1, 2, 3, 4, 5
      having (sum(plays), sum(measured), sum(played_ms), sum(unmeasured_ms)) <> (0, 0, 0, 0) order by 1, 2, 3, 4, 5
      on conflict (user_id, grain, period_start, dim, key) do update set plays = stats_group_counts.plays + excluded.plays,
        measured = stats_group_counts.measured + excluded.measured, played_ms = stats_group_counts.played_ms + excluded.played_ms,
        unmeasured_ms = stats_group_counts.unmeasured_ms + excluded.unmeasured_ms
      returning user_id, grain, period_start, dim, key, plays, measured, played_ms, unmeasured_ms
    )
    select ${zeroGroups}`.execute(tx);
  return rows[0]!;
}

/**
 * Group rows counted down to nothing, to delete: (user_id, id) lists, (user_id, grain, period_start,
 * dim, key) for group counts (absent where a statement keeps none), or null.
 */
export interface ZeroGroups {
  zero_artists: { user_id: string; id: string }[] | null;
  zero_albums: { user_id: string; id: string }[] | null;
  zero_group_counts?: { user_id: string; grain: string; period_start: string; dim: string; key: string }[] | null;
}

/** The zero_artists and zero_albums columns of a statement with CTEs `artists` and `albums` returning (user_id, id, plays). */
export const zeroTotals = sql`(select json_agg(json_build_object('user_id', user_id, 'id', id)) from artists where plays = 0) as zero_artists,
  (select json_agg(json_build_object('user_id', user_id, 'id', id)) from albums where plays = 0) as zero_albums`;

/**
 * The ZeroGroups columns of a statement with CTEs `artists` and `albums` (zeroTotals), and
 * `group_counts` returning group counts. A group count goes when all it sums is zero: batches may
 * be folded out of order, so plays can pass through zero while a played time is still counted.
 */
export const zeroGroups = sql`${zeroTotals},
  (select json_agg(json_build_object('user_id', user_id, 'grain', grain, 'period_start', period_start, 'dim', dim, 'key', key)) from group_counts
    where plays = 0 and measured = 0 and played_ms = 0 and unmeasured_ms = 0) as zero_group_counts`;

/**
 * The group counts a row of groups (artist_id, album_id, genre) counts in, as a relation d (dim,
 * key) to join laterally: its artist, album and genre where it has them, and all plays.
 */
export const groupDims = (groups: RawBuilder<unknown>) =>
  sql`(values ('a'::"char", ${groups}.artist_id::text), ('l'::"char", ${groups}.album_id::text), ('g'::"char", ${groups}.genre), ('t'::"char", '')) d (dim, key)`;

/** The grains group counts are kept in (migration 0035), as a relation p (grain, unit) to cross join: date_trunc(unit, …) starts a period. */
export const GROUP_GRAINS = sql`(values ('y'::"char", 'year'), ('m'::"char", 'month')) p (grain, unit)`;

/**
 * (track_id, artist_id, album_id, genre, duration) of every track in the catalog now: the groups
 * its plays are counted under once the fold has met or regrouped it (the genre is its own, else
 * its album's).
 */
export const catalogGroups = sql`(select t.id as track_id, t.artist_id, t.album_id, coalesce(t.genre, al.genre) as genre, t.duration
  from tracks t left join albums al on al.id = t.album_id)`;

/** Deletes the group rows a fold or regroup counted down to zero (in a later statement, which sees them). */
export async function tidyGroups(tx: Transaction<DB>, zero: ZeroGroups): Promise<void> {
  if (zero.zero_group_counts) {
    await sql`delete from stats_group_counts c
      using json_to_recordset(${JSON.stringify(zero.zero_group_counts)}::json) z (user_id uuid, grain "char", period_start timestamptz, dim "char", key text)
      where c.user_id = z.user_id and c.grain = z.grain and c.period_start = z.period_start and c.dim = z.dim and c.key = z.key
        and c.plays = 0 and c.measured = 0 and c.played_ms = 0 and c.unmeasured_ms = 0`.execute(tx);
  }
  for (const group of ['artist', 'album'] as const) {
    const rows = group === 'artist' ? zero.zero_artists : zero.zero_albums;
    if (!rows) continue;
    const column = sql.ref(`t.${group}_id`);
    await sql`delete from ${sql.table(TOTALS[group])} t using json_to_recordset(${JSON.stringify(rows)}::json) z (user_id uuid, id uuid)
      where t.user_id = z.user_id and ${column} = z.id and t.plays = 0`.execute(tx);
  }
}

/**
 * (id, plays) for each artist or album `userId` (or, with null, anyone) played of all time, plays
 * > 0: the group totals plus the changes not in them yet (pendingGroupChanges). Each is what the
 * fold will make of it, so a read agrees with the scrobbles in any snapshot.
 */
export function groupPlays(userId: string | null, group: Group): RawBuilder<{ id: string; plays: number }> {
  return sql`select id, sum(plays)::int as plays from (
      select ${sql.ref(`${group}_id`)}, plays from ${sql.table(TOTALS[group])} where ${ofUser(userId, 'user_id')}
      union all
      ${pendingGroupChanges(userId, group)}
    ) counted (id, plays) where id is not null group by id having sum(plays) > 0`;
}

const ofUser = (userId: string | null, ref: string) => (userId === null ? sql`true` : sql`${sql.ref(ref)} = ${userId}`);

/**
 * (id, plays) changes of `userId`'s (or, with null, anyone's) artist or album totals that the
 * tables do not hold yet, not summed, id null for a track without one: the moves of tracks noted
 * for regrouping and not yet regrouped, and the changes still queued (`queued`, (track_id, delta)
 * as queuedPerTrack sums them) under the groups they will be folded into: an existing track's own,
 * a merged-away track's as stats_track_groups keeps them. The queue is summed per track before
 * the catalog is joined: after a bulk import it holds ~100k rows of a few thousand tracks.
 */
export function pendingGroupChanges(
  userId: string | null,
  group: Group,
  queued: RawBuilder<unknown> = queuedPerTrack(userId),
): RawBuilder<{ id: string | null; plays: number }> {
  const column = `${group}_id`;
  return sql`select x.id, x.sign * tt.plays
      from (select distinct track_id from stats_regroup) r
      join stats_track_groups g on g.track_id = r.track_id join tracks t on t.id = r.track_id
      join stats_track_totals tt on tt.track_id = r.track_id and ${ofUser(userId, 'tt.user_id')}
      cross join lateral (values (${sql.ref(`g.${column}`)}, -1), (${sql.ref(`t.${column}`)}, 1)) x (id, sign)
      union all
      select case when t.id is null then (select ${sql.ref(`g.${column}`)} from stats_track_groups g where g.track_id = q.track_id) else ${sql.ref(`t.${column}`)} end, q.delta
      from (${queued}) q left join tracks t on t.id = q.track_id`;
}
