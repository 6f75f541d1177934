import { sql, type Kysely, type RawBuilder } from 'kysely';
import { settingsFor, type DB, type StatsGroupDim } from '../../../toolkit/db/index.ts';
import { catalogGroups, groupDims } from './groups.ts';
import { onePeriod, windowPieces, type Piece } from './pieces.ts';
import { exactSum, listeningParts, periodsOf, pieceTracks, type PlaysWindow, type QueuedChanges } from './reads.ts';

/**
 * A window's plays per artist, album and genre, and in all, with their listening time: for
 * Wrapped, which sums them. Whole UTC years and months are read from their group counts
 * (stats_group_counts, migrations 0032 and 0035: a few thousand rows where a heavy listener's
 * year has ~20k tracks and a month ~6k); every other piece (days, raw plays at the edges) and the
 * changes still queued are read per track (reads.ts) and put under the track's groups. Groups are
 * those of the catalog now: a track's group counts are moved by the fold after a catalog edit
 * (groups.ts), and until then the moves are added here, so a read agrees with the raw plays in
 * any snapshot. Raw SQL, as the other rollup reads: a union of index range scans with constant
 * bounds.
 */
export interface GroupRow {
  dim: StatsGroupDim;
  /** The artist's or album's id, the genre, or '' for all plays. */
  key: string;
  plays: number;
  /** How many of the plays have a played time, and its sum in ms (a bigint). */
  measured: number;
  played_ms: string;
  /** The track's duration for each play without a played time, summed in ms (a bigint). */
  unmeasured_ms: string;
}

/** A piece with group counts of its own: whole years and months. */
const hasGroupCounts = (piece: Piece) => piece.source === 'y' || piece.source === 'm';

/**
 * Rows of (dim, key, plays, measured, played_ms, unmeasured_ms), not summed: summed per (dim, key)
 * they are `userId`'s plays in the window per artist ('a'), album ('l'), genre ('g') and in all
 * ('t', key ''), never below zero (counting every queued change), possibly zero; `options` may
 * restrict them to some (GroupsOptions).
 * `regrouping` says whether catalog edits wait for the fold (isRegrouping, read in the snapshot the
 * statement runs in): the moves they make are only read when some do, which spares the planner
 * two branches of joins (2 of a Wrapped's 5 ms of planning).
 */
export function windowGroups(userId: string, window: PlaysWindow, options: GroupsOptions): RawBuilder<GroupRow> {
  const { regrouping, rollups = true } = options;
  const { pieces, parts } = listeningParts(userId, window, (piece) => rollups && !hasGroupCounts(piece), options.queued);
  const branches = [
    ...pieces
      .filter((piece) => rollups && hasGroupCounts(piece))
      .flatMap((piece) => [groupCounts(userId, piece, options), ...(regrouping ? [pendingMoves(userId, piece, options)] : [])]),
    ...(options.tracks ? [inGroups(options.tracks, options)] : parts.length > 0 ? [inGroups(sql.join(parts, sql` union all `), options)] : []),
  ];
  if (branches.length === 0)
    return sql`select null::"char" as dim, null::text as key, 0 as plays, 0 as measured, 0::bigint as played_ms, 0::bigint as unmeasured_ms where false`;
  return sql`select * from (${sql.join(branches, sql` union all `)}) grouped (dim, key, plays, measured, played_ms, unmeasured_ms)`;
}

export interface GroupsOptions {
  /** Only this dimension (all when absent). */
  only?: StatsGroupDim;
  /**
   * The artists asked about: a relation of their ids (as uuid), with only 'a'. The parts read per
   * track and a single period's group counts are theirs alone; other artists' rows of a range of
   * periods and moves waiting for the fold may still be there, so a caller keeps the keys it asked
   * for.
   */
  artists?: RawBuilder<unknown>;
  /**
   * The queued changes to count: all (when absent); only plays leaving, which makes each sum a
   * lower bound that is exact where no play is queued to arrive: read after a bulk import (~100k
   * queued plays arriving) without summing the import per track; or only plays arriving, to add
   * to such a bound.
   */
  queued?: QueuedChanges;
  /**
   * The window's plays per track outside its group counts, queued changes included, as (track_id,
   * plays, measured, played_ms) (edgeTracks, for a reader that needs them itself too): read instead
   * of those pieces and the queue.
   */
  tracks?: RawBuilder<unknown>;
  /** false: the queued changes alone, none of the rollups (to add to a sum read without them). */
  rollups?: false;
  regrouping: boolean;
}

/**
 * A window's plays per track in its pieces without group counts (days, raw plays at the edges), with
 * the changes queued in it, summed per track: (track_id, plays, measured, played_ms); for
 * windowGroups' `tracks`. With groupedTracks' rows, all the window's plays per track.
 */
export function edgeTracks(userId: string, window: PlaysWindow): RawBuilder<{ track_id: string; plays: number }> {
  const { parts } = listeningParts(userId, window, (piece) => !hasGroupCounts(piece));
  if (parts.length === 0) return sql`select null::uuid as track_id, 0 as plays, 0 as measured, 0::bigint as played_ms where false`;
  return sql`select track_id, sum(plays) as plays, sum(measured) as measured, ${exactSum(sql`played_ms`)} as played_ms
    from (${sql.join(parts, sql` union all `)}) c (track_id, plays, measured, played_ms) group by 1`;
}

/** A window's plays per track in its pieces with group counts (whole years and months), as relations of (track_id, plays), not summed. */
export const groupedTracks = (userId: string, window: PlaysWindow) => pieceTracks(userId, window, hasGroupCounts);

/** The column whose value is each dimension's key. */
const KEY_COLUMNS: Record<StatsGroupDim, RawBuilder<unknown>> = { a: sql`artist_id::text`, l: sql`album_id::text`, g: sql`genre`, t: sql`''` };

/**
 * How rows of (artist_id, album_id, genre, sums) are summed per (dim, key): one grouping pass over
 * every dimension (grouping() of artist_id, album_id and genre tells the sets apart: 3, 5, 6, 7),
 * or one group by for a single one.
 */
function groupingOf(only: StatsGroupDim | undefined) {
  if (only) return { dim: sql`${sql.lit(only)}::"char"`, key: KEY_COLUMNS[only], by: sql`group by 1, 2` };
  const set = sql`grouping(artist_id, album_id, genre)`;
  return {
    dim: sql`case ${set} when 3 then 'a' when 5 then 'l' when 6 then 'g' else 't' end::"char"`,
    key: sql`case ${set} when 3 then artist_id::text when 5 then album_id::text when 6 then genre else '' end`,
    by: sql`group by grouping sets ((artist_id), (album_id), (genre), ())`,
  };
}

/** The condition on a row's dim the options ask for. */
const wanted = (dim: RawBuilder<unknown>, { only }: GroupsOptions) => (only ? sql`${dim} = ${sql.lit(only)}` : sql`true`);

/** A piece of whole years or months from their group counts, times its weight. */
function groupCounts(userId: string, piece: Piece, options: GroupsOptions) {
  const weight = sql.lit(piece.weight);
  // Over one period a few artists are probes of the key; over a range of periods, every row.
  const ofArtists = options.artists && onePeriod(piece) ? sql` and key in (select id::text from (${options.artists}) a (id))` : sql``;
  return sql`select dim, key, plays * ${weight}, measured * ${weight}, played_ms * ${weight}, unmeasured_ms * ${weight}
    from stats_group_counts where user_id = ${userId} and grain = ${sql.lit(piece.source)} and ${periodsOf(sql`period_start`, piece)}
      and ${wanted(sql`dim`, options)}${ofArtists}`;
}

/**
 * Whether a window has months or days, which a Wrapped reads per track (its top songs, and the days
 * in its groups): thousands of rows for a heavy listener, which the planner, guessing a few dozen
 * from their sum per track, would look up in the catalog one by one rather than hash (a 30-day
 * Wrapped: 35 of its 70 ms). A window of whole years reads only the hours at its edges per track,
 * for which lookups one by one are right.
 */
export const readsMonthsOrDays = (window: PlaysWindow) => windowPieces(window.start, window.end).some((piece) => piece.source === 'm' || piece.source === 'd');

/**
 * Whether catalog edits wait for the fold to move tracks' group counts: whether windowGroups must add
 * the moves. In a transaction, `settings` are set for it in the same statement (settingsFor).
 */
export async function isRegrouping(db: Kysely<DB>, settings: Readonly<Record<string, string>> = {}): Promise<boolean> {
  const set = Object.keys(settings).length > 0 ? sql`${settingsFor(settings)}, ` : sql``;
  const { rows } = await sql<{ regrouping: boolean }>`select ${set}exists (select 1 from stats_regroup) as regrouping`.execute(db);
  return rows[0]!.regrouping;
}

/**
 * The moves the fold has yet to make in a piece of whole years or months: for each track a catalog
 * edit noted (stats_regroup) and the fold has counted, its counts of the piece's grain off its old
 * groups and onto the catalog's.
 */
function pendingMoves(userId: string, piece: Piece, options: GroupsOptions) {
  const weight = sql.lit(piece.weight);
  return sql`select d.dim, d.key, x.sign * c.plays * ${weight}, x.sign * c.measured * ${weight}, x.sign * c.played_ms * ${weight},
      x.sign * coalesce(x.duration::bigint * (c.plays - c.measured), 0) * ${weight}
    from (select distinct track_id from stats_regroup) r
    join stats_track_groups g on g.track_id = r.track_id join ${catalogGroups} n on n.track_id = r.track_id
    join stats_track_counts c on c.user_id = ${userId} and c.grain = ${sql.lit(piece.source)} and ${periodsOf(sql`c.period_start`, piece)} and c.track_id = r.track_id
    cross join lateral (values (g.artist_id, g.album_id, g.genre, g.duration, -1), (n.artist_id, n.album_id, n.genre, n.duration, 1))
      x (artist_id, album_id, genre, duration, sign)
    cross join lateral ${groupDims(sql`x`)}
    where d.key is not null and ${wanted(sql`d.dim`, options)}`;
}

/**
 * Per-track rows (track_id, plays, measured, played_ms), summed per track, under the groups their
 * plays count in: the catalog's for a track in it; for a track merged away (its rollup rows and
 * queued removals not folded yet), those the fold counted it under, where its removals will be
 * taken off; a track the fold never met and the catalog no longer has counts nowhere, as in the
 * fold. Summed first, so each track meets the catalog once however many days of a window it has.
 */
function inGroups(rows: RawBuilder<unknown>, options: GroupsOptions) {
  // The tracks that can count for the artists asked for: theirs in the catalog, and those merged away from them.
  const ofArtists = options.artists
    ? sql`where c.track_id in (select id from tracks where artist_id in (select * from (${options.artists}) a)
        union all select track_id from stats_track_groups where artist_id in (select * from (${options.artists}) a))`
    : sql``;
  const pick = (column: string) => sql`case when n.track_id is not null then ${sql.ref(`n.${column}`)} else ${sql.ref(`g.${column}`)} end`;
  // A track's groups as the fold keeps them (stats_track_groups: narrow, one row a track) are the
  // catalog's for every track the fold has met and no edit waits to move; the catalog (tracks and
  // albums, wide) is read only for the others, one probe each. The days at a 30-day window's edges
  // hold ~1.5k tracks of a heavy listener; a window of days alone, up to ~6k. Then every sum in one
  // grouping pass (expanded into a row per group first, they were up to 80k rows to sum).
  const moved = options.regrouping ? sql` or c.track_id in (select track_id from stats_regroup)` : sql``;
  const grouping = groupingOf(options.only);
  return sql`select dim, key, plays, measured, played_ms, unmeasured_ms from (
      select ${grouping.dim} as dim, ${grouping.key} as key,
        sum(plays) as plays, sum(measured) as measured, ${exactSum(sql`played_ms`)} as played_ms,
        coalesce(${exactSum(sql`duration::bigint * (plays - measured)`)}, 0) as unmeasured_ms
      from (
        select c.plays, c.measured, c.played_ms, ${pick('artist_id')} as artist_id, ${pick('album_id')} as album_id, ${pick('genre')} as genre,
          ${pick('duration')} as duration
        from (
          select track_id, sum(plays) as plays, sum(measured) as measured, ${exactSum(sql`played_ms`)} as played_ms
          from (${rows}) c (track_id, plays, measured, played_ms) ${ofArtists} group by 1
        ) c
        left join stats_track_groups g on g.track_id = c.track_id
        -- The limit keeps the probe a probe: flattened into a join, it was planned as a hash of the whole catalog.
        left join lateral (select * from ${catalogGroups} n where (g.track_id is null${moved}) and n.track_id = c.track_id limit 1) n on true
        where n.track_id is not null or g.track_id is not null
      ) k ${grouping.by}
    ) sums where key is not null and ${wanted(sql`dim`, options)}`;
}
