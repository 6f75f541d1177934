/**
 * The statistics' rollups, and how plays reach them. No TypeScript call leads from a stored play
 * to a statistic: triggers on scrobbles (src/toolkit/db/migrations/0012_stats_rollups.sql:
 * scrobbles_stats_inserted, _deleted, _updated) append every change of a play, whoever makes it
 * (insertScrobbles in src/core/scrobbling/ingest.ts for the ListenBrainz, Last.fm, Audioscrobbler
 * and Maloja submits and imports; corrections, catalog merges, deletions), to the stats_queue
 * table, in the writer's transaction. This module folds that queue into the rollups
 * (stats_track_counts, stats_hours, stats_days, stats_track_totals, per artist and album of all time and per
 * artist, album and genre of each year and month, groups.ts): statsFoldJob every second in a serving
 * process (started by `earshot serve`, src/cli/commands/serve.ts), foldAll on demand. Readers
 * (reads.ts) add the plays still queued to the rollups, so a play counts the moment it is stored;
 * rebuild.ts recomputes every rollup from the raw plays (`earshot stats rebuild`), and pieces.ts
 * splits a window into whole rollup periods and raw edges.
 */
import { sql, type Transaction } from 'kysely';
import type { BackgroundJob } from '../../../toolkit/background.ts';
import { inTransaction, type Database, type DB } from '../../../toolkit/db/index.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';
import { FOLD_LOCK, GROUP_GRAINS, groupDims, regroup, tidyGroups, zeroGroups, type ZeroGroups } from './groups.ts';
import { allTimeTotalsOf, tidyTrackTotals, totalAhead, trackGroupsOf, zeroTrackTotals } from './totals-ahead.ts';
import { countDown, reclaimQueue } from './queue-marks.ts';
import { utcDayOf } from './reads.ts';
import { analyzeGrownQueue, QUEUE_ANALYZE_AFTER, VACUUM_AFTER, vacuumRollups } from './vacuum.ts';

/**
 * Queued changes folded per transaction: enough to amortize a statement, few enough that the
 * embedded database (one connection, statements run to the end) is never held for long: about
 * 0.2 s on PGlite, 0.1 s on PostgreSQL.
 */
const BATCH = 1_000;
/** How often a serving process looks for queued changes; a read never waits for the fold, so this only bounds the queue's length. */
const FOLD_INTERVAL_MS = 1_000;

interface Folded extends ZeroGroups {
  taken: number;
  /** Rollup keys whose count reached zero, to delete. */
  zero_counts: { user_id: string; grain: string; period_start: string; track_id: string }[] | null;
  zero_hours: { user_id: string; hour: string }[] | null;
  zero_days: { user_id: string; day: string }[] | null;
  zero_totals: { user_id: string; track_id: string }[] | null;
  /** Rows taken per user, and how many of them were totalled, to count down in stats_queue_users (queue-marks.ts). */
  taken_by_user: { user_id: string; taken: number; totalled: number }[] | null;
}

/**
 * Takes up to BATCH queued changes and adds them to the rollups, in one statement. Raw SQL: a
 * chain of data-modifying CTEs over the taken rows. Several processes may fold, one batch at a time
 * (FOLD_LOCK, groups.ts); SKIP LOCKED and upserts in key order are kept all the same.
 * Rows of users deleted since are dropped. The counts carry the played time too (measured plays and
 * their played_ms, migration 0027): a play leaving takes off exactly what it brought. Minutes are
 * taken in UTC (extract from a timestamptz follows the session's zone). The per-artist and
 * per-album totals and the group counts take each track's groups (and the duration its plays without
 * a played time count) from stats_track_groups, a track met for the first time from `tracks`
 * (groups.ts).
 */
const takeAndFold = sql<Folded>`
  with taken as (
    delete from stats_queue where ctid = any(array(select ctid from stats_queue limit ${BATCH} for update skip locked))
    returning user_id, track_id, listened_at, delta, played_ms, totalled
  ),
  live as (select t.* from taken t where exists (select 1 from users u where u.id = t.user_id)),
  counts as (
    insert into stats_track_counts (user_id, grain, period_start, track_id, plays, measured, played_ms)
    select user_id, g.grain, date_trunc(g.unit, listened_at, 'UTC'), track_id, sum(delta),
      coalesce(sum(delta) filter (where played_ms is not null), 0), coalesce(sum(delta * played_ms::bigint), 0)
    from live cross join (values ('y'::"char", 'year'), ('m'::"char", 'month'), ('d'::"char", 'day')) g (grain, unit)
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (user_id, grain, period_start, track_id) do update set plays = stats_track_counts.plays + excluded.plays,
      measured = stats_track_counts.measured + excluded.measured, played_ms = stats_track_counts.played_ms + excluded.played_ms
    returning user_id, grain, period_start, track_id, plays
  ),
  ${trackGroupsOf('live')},
  -- Plays the step ahead of the fold (totals-ahead.ts) totalled are in the all-time totals already.
  untotalled as (select * from live where not totalled),
  ${allTimeTotalsOf('untotalled')},
  group_counts as (
    insert into stats_group_counts (user_id, grain, period_start, dim, key, plays, measured, played_ms, unmeasured_ms)
    select l.user_id, p.grain, date_trunc(p.unit, l.listened_at, 'UTC'), d.dim, d.key, sum(l.delta),
      coalesce(sum(l.delta) filter (where l.played_ms is not null), 0), coalesce(sum(l.delta * l.played_ms::bigint), 0),
      coalesce(sum(l.delta * g.duration::bigint) filter (where l.played_ms is null), 0)
    from live l join groups g using (track_id) cross join ${GROUP_GRAINS} cross join lateral ${groupDims(sql`g`)}
    where d.key is not null
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (user_id, grain, period_start, dim, key) do update set plays = stats_group_counts.plays + excluded.plays,
      measured = stats_group_counts.measured + excluded.measured, played_ms = stats_group_counts.played_ms + excluded.played_ms,
      unmeasured_ms = stats_group_counts.unmeasured_ms + excluded.unmeasured_ms
    returning user_id, grain, period_start, dim, key, plays, measured, played_ms, unmeasured_ms
  ),
  quarters as (select user_id, date_trunc('hour', listened_at, 'UTC') as hour, extract(minute from listened_at at time zone 'UTC')::int / 15 as quarter, delta from live),
  hours as (
    insert into stats_hours (user_id, hour, q0, q1, q2, q3)
    select user_id, hour,
      coalesce(sum(delta) filter (where quarter = 0), 0), coalesce(sum(delta) filter (where quarter = 1), 0),
      coalesce(sum(delta) filter (where quarter = 2), 0), coalesce(sum(delta) filter (where quarter = 3), 0)
    from quarters group by 1, 2 order by 1, 2
    on conflict (user_id, hour) do update set
      q0 = stats_hours.q0 + excluded.q0, q1 = stats_hours.q1 + excluded.q1, q2 = stats_hours.q2 + excluded.q2, q3 = stats_hours.q3 + excluded.q3
    returning user_id, hour, q0, q1, q2, q3
  ),
  day_quarters as (
    select user_id, ${utcDayOf(sql`listened_at`)} as day, floor(extract(epoch from listened_at - ${utcDayOf(sql`listened_at`)}) / 900)::int as quarter, sum(delta) as delta
    from live group by 1, 2, 3
  ),
  days as (
    -- Each day's changes as running sums over its 96 quarters (migration 0033), added to its row.
    insert into stats_days (user_id, day, upto)
    select user_id, day, array_agg(upto order by i) from (
      select d.user_id, d.day, i, (sum(coalesce(q.delta, 0)) over (partition by d.user_id, d.day order by i))::int as upto
      from (select distinct user_id, day from day_quarters) d cross join generate_series(0, 95) i
      left join day_quarters q on q.user_id = d.user_id and q.day = d.day and q.quarter = i
    ) grid group by 1, 2 order by 1, 2
    on conflict (user_id, day) do update set upto = stats_days_add(stats_days.upto, excluded.upto)
    returning user_id, day, upto
  )
  select (select count(*)::int from taken) as taken,
    (select json_agg(json_build_object('user_id', user_id, 'grain', grain, 'period_start', period_start, 'track_id', track_id)) from counts where plays = 0) as zero_counts,
    (select json_agg(json_build_object('user_id', user_id, 'hour', hour)) from hours where q0 = 0 and q1 = 0 and q2 = 0 and q3 = 0) as zero_hours,
    (select json_agg(json_build_object('user_id', user_id, 'day', day)) from days where 0 = all(upto)) as zero_days,
    ${zeroTrackTotals},
    ${zeroGroups},
    (select json_agg(json_build_object('user_id', user_id, 'taken', n, 'totalled', totalled))
      from (select user_id, count(*) as n, count(*) filter (where totalled) as totalled from taken group by 1) t) as taken_by_user`;

/** A second statement, which sees the fold's effects: rows counted down to nothing go. */
async function tidy(tx: Transaction<DB>, folded: Folded): Promise<void> {
  if (folded.zero_counts) {
    await sql`delete from stats_track_counts c using json_to_recordset(${JSON.stringify(folded.zero_counts)}::json) z (user_id uuid, grain "char", period_start timestamptz, track_id uuid)
      where c.user_id = z.user_id and c.grain = z.grain and c.period_start = z.period_start and c.track_id = z.track_id and c.plays = 0`.execute(tx);
  }
  if (folded.zero_hours) {
    await sql`delete from stats_hours h using json_to_recordset(${JSON.stringify(folded.zero_hours)}::json) z (user_id uuid, hour timestamptz)
      where h.user_id = z.user_id and h.hour = z.hour and h.q0 = 0 and h.q1 = 0 and h.q2 = 0 and h.q3 = 0`.execute(tx);
  }
  if (folded.zero_days) {
    await sql`delete from stats_days d using json_to_recordset(${JSON.stringify(folded.zero_days)}::json) z (user_id uuid, day timestamptz)
      where d.user_id = z.user_id and d.day = z.day and 0 = all(d.upto)`.execute(tx);
  }
  await tidyTrackTotals(tx, folded.zero_totals);
  await tidyGroups(tx, folded);
}

/** Folds one batch; answers how many queued changes it took (0 when the queue is empty or every row is being folded elsewhere). */
export async function foldBatch(db: Database): Promise<number> {
  return asHeavyWork(() =>
    inTransaction(db, async (tx) => {
      // One fold at a time (groups.ts): taken first, so nothing the fold holds is waited for meanwhile.
      // No JIT: the planner's estimates for the regroup's joins with the rollups (taken whether or
      // not a track is noted) pass jit_above_cost, and PostgreSQL compiled it for ~0.55 s a batch.
      await sql`select pg_advisory_xact_lock(${FOLD_LOCK}::bigint), set_config('jit', 'off', true)`.execute(tx);
      await tidyGroups(tx, await regroup(tx));
      const { rows } = await takeAndFold.execute(tx);
      await tidy(tx, rows[0]!);
      await countDown(tx, rows[0]!.taken_by_user);
      return rows[0]!.taken;
    }),
  );
}

/**
 * Folds until the queue is empty (or `signal` aborts), then reclaims its space if it grew; answers
 * how many changes it folded. Before each batch it analyzes a queue grown past `analyzeAfter`
 * (vacuum.ts) and totals what is not totalled yet (totals-ahead.ts): a fold may run for seconds
 * while an import fills the queue behind it.
 */
export async function foldAll(db: Database, signal?: AbortSignal, analyzeAfter = QUEUE_ANALYZE_AFTER): Promise<number> {
  let total = 0;
  for (let taken = BATCH; taken === BATCH && !signal?.aborted; ) {
    await analyzeGrownQueue(db, analyzeAfter);
    // The all-time totals first, whatever an import has queued meanwhile: its plays count there
    // within a second or two, where folding them all takes tens of seconds (totals-ahead.ts).
    await totalAhead(db, signal);
    taken = await foldBatch(db);
    total += taken;
  }
  if (!signal?.aborted) await reclaimQueue(db);
  return total;
}

/**
 * The serving process's fold: every second, whatever is queued; a large catch-up is logged. Once
 * it has folded `vacuumAfter` changes it vacuums the rollups (vacuum.ts).
 */
export function statsFoldJob(db: Database, vacuumAfter = VACUUM_AFTER): BackgroundJob {
  let sinceVacuum = 0;
  return {
    name: 'Statistics',
    intervalMs: FOLD_INTERVAL_MS,
    async run(signal) {
      const folded = await foldAll(db, signal);
      sinceVacuum += folded;
      if (sinceVacuum >= vacuumAfter && !signal.aborted) {
        await vacuumRollups(db, signal);
        sinceVacuum = 0;
      }
      return folded >= 10 * BATCH ? `folded ${folded} changes into the rollups` : undefined;
    },
  };
}
