import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB, StatsYearDim } from '../../../toolkit/db/index.ts';
import { catalogGroups, yearDims } from './groups.ts';
import { onePeriod, type Piece } from './pieces.ts';
import { listeningParts, type PlaysWindow } from './reads.ts';

/**
 * A window's plays per artist, album and genre, and in all, with their listening time: for
 * Wrapped, which sums them. Whole UTC years are read from their year rows (stats_year_groups,
 * migration 0032: a few thousand rows where a heavy listener's year has ~20k tracks); every other
 * piece (months, days, raw plays at the edges) and the changes still queued are read per track
 * (reads.ts) and put under the track's groups. Groups are those of the catalog now: a track's
 * year rows are moved by the fold after a catalog edit (groups.ts), and until then the moves are
 * added here, so a read agrees with the raw plays in any snapshot. Raw SQL, as the other rollup
 * reads: a union of index range scans with constant bounds.
 */
export interface GroupRow {
  dim: StatsYearDim;
  /** The artist's or album's id, the genre, or '' for all plays. */
  key: string;
  plays: number;
  /** How many of the plays have a played time, and its sum in ms (a bigint). */
  measured: number;
  played_ms: string;
  /** The track's duration for each play without a played time, summed in ms (a bigint). */
  unmeasured_ms: string;
}

const ALL_DIMS: StatsYearDim[] = ['a', 'l', 'g', 't'];

/**
 * Rows of (dim, key, plays, measured, played_ms, unmeasured_ms), not summed: summed per (dim, key)
 * they are `userId`'s plays in the window per artist ('a'), album ('l'), genre ('g') and in all
 * ('t', key ''), never below zero, possibly zero. `dims` restricts them to those dimensions.
 * `regrouping` says whether catalog edits wait for the fold (isRegrouping, read in the snapshot the
 * statement runs in): the moves they make are only read when some do, which spares the planner
 * two branches of joins (2 of a Wrapped's 5 ms of planning).
 */
export function windowGroups(userId: string, window: PlaysWindow, options: { dims?: StatsYearDim[]; regrouping: boolean }): RawBuilder<GroupRow> {
  const { dims = ALL_DIMS, regrouping } = options;
  const years = (piece: Piece) => piece.source === 'y';
  const { pieces, parts } = listeningParts(userId, window, (piece) => !years(piece));
  const branches = [
    ...pieces.filter(years).flatMap((piece) => [yearRows(userId, piece, dims), ...(regrouping ? [pendingMoves(userId, piece, dims)] : [])]),
    ...parts.map((part) => inGroups(part, dims)),
  ];
  if (branches.length === 0)
    return sql`select null::"char" as dim, null::text as key, 0 as plays, 0 as measured, 0::bigint as played_ms, 0::bigint as unmeasured_ms where false`;
  return sql`select * from (${sql.join(branches, sql` union all `)}) grouped (dim, key, plays, measured, played_ms, unmeasured_ms)`;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const ofDims = (column: RawBuilder<unknown>, dims: StatsYearDim[]) =>
  dims.length === ALL_DIMS.length ? sql`true` : sql`${column} in (${sql.join(dims.map((dim) => sql.lit(dim)))})`;

/** The year range of a piece of whole years, as a condition on `column`: one year by equality. */
function yearsOf(column: RawBuilder<unknown>, piece: Piece) {
  const year = onePeriod(piece);
  return year ? sql`${column} = ${at(year)}` : sql`${column} >= ${at(piece.from)} and ${column} < ${at(piece.to)}`;
}

/** A piece of whole years from the year rows, times its weight. */
function yearRows(userId: string, piece: Piece, dims: StatsYearDim[]) {
  const weight = sql.lit(piece.weight);
  return sql`select dim, key, plays * ${weight}, measured * ${weight}, played_ms * ${weight}, unmeasured_ms * ${weight}
    from stats_year_groups where user_id = ${userId} and ${yearsOf(sql`year`, piece)} and ${ofDims(sql`dim`, dims)}`;
}

/** Whether catalog edits wait for the fold to move tracks' year rows: whether windowGroups must add the moves. */
export async function isRegrouping(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ regrouping: boolean }>`select exists (select 1 from stats_regroup) as regrouping`.execute(db);
  return rows[0]!.regrouping;
}

/**
 * The moves the fold has yet to make in a piece of whole years: for each track a catalog edit noted
 * (stats_regroup) and the fold has counted, its yearly counts off its old groups and onto the
 * catalog's.
 */
function pendingMoves(userId: string, piece: Piece, dims: StatsYearDim[]) {
  const weight = sql.lit(piece.weight);
  return sql`select d.dim, d.key, x.sign * c.plays * ${weight}, x.sign * c.measured * ${weight}, x.sign * c.played_ms * ${weight},
      x.sign * coalesce(x.duration::bigint * (c.plays - c.measured), 0) * ${weight}
    from (select distinct track_id from stats_regroup) r
    join stats_track_groups g on g.track_id = r.track_id join ${catalogGroups} n on n.track_id = r.track_id
    join stats_track_counts c on c.user_id = ${userId} and c.grain = 'y' and ${yearsOf(sql`c.period_start`, piece)} and c.track_id = r.track_id
    cross join lateral (values (g.artist_id, g.album_id, g.genre, g.duration, -1), (n.artist_id, n.album_id, n.genre, n.duration, 1))
      x (artist_id, album_id, genre, duration, sign)
    cross join lateral ${yearDims(sql`x`)}
    where d.key is not null and ${ofDims(sql`d.dim`, dims)}`;
}

/**
 * Per-track rows (track_id, plays, measured, played_ms) under the groups their plays count in: the
 * catalog's for a track in it; for a track merged away (its rollup rows and queued removals not
 * folded yet), those the fold counted it under, where its removals will be taken off; a track
 * the fold never met and the catalog no longer has counts nowhere, as in the fold.
 */
function inGroups(part: RawBuilder<unknown>, dims: StatsYearDim[]) {
  // A lateral probe per track, the catalog's groups first: a join would hash every track's groups
  // for the few hundred rows at a window's edges.
  return sql`select d.dim, d.key, c.plays, c.measured, c.played_ms, coalesce(k.duration::bigint * (c.plays - c.measured), 0)
    from (${part}) c (track_id, plays, measured, played_ms)
    cross join lateral (
      select artist_id, album_id, genre, duration from (
        select 0 as rank, n.* from ${catalogGroups} n where n.track_id = c.track_id
        union all
        select 1, g.track_id, g.artist_id, g.album_id, g.genre, g.duration from stats_track_groups g where g.track_id = c.track_id
      ) known order by rank limit 1
    ) k
    cross join lateral ${yearDims(sql`k`)}
    where d.key is not null and ${ofDims(sql`d.dim`, dims)}`;
}
