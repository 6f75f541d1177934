/**
 * All-time totals ahead of the fold (migration 0036). The fold (fold.ts) counts each queued play in
 * every rollup, ~1,000 plays a batch, so a bulk import of 100k plays stays queued for tens of
 * seconds, and until then every all-time read (a profile's counts, top lists, catalog play counts)
 * summed the import per track. Once a user has that many queued (TOTAL_AHEAD_AFTER), this step
 * adds queued plays to the all-time totals alone (per track, artist and album; stats_catalog_plays
 * follows the track totals by trigger), thousands a statement, and marks them `totalled`; the fold
 * later counts them everywhere else and leaves the totals be. All-time reads take only the rows not totalled (queuedRows, reads.ts) and skip the
 * queue when a user has none (anyUntotalled, queue-marks.ts). Window reads are unchanged: a
 * totalled row is in no window's rollups until folded.
 *
 * The step runs under the fold's lock (FOLD_LOCK) in its own transaction: the totals, the marks on
 * the rows and the count of them per user (stats_queue_users.totalled) change together, so a read
 * in any snapshot counts each play once. A totalled track keeps the groups stats_track_groups names
 * for it, as the fold would have counted it under; a later regroup moves its totals with the rest.
 */
import { sql, type Transaction } from 'kysely';
import { inTransaction, type Database, type DB } from '../../../toolkit/db/index.ts';
import { asHeavyWork } from '../../../toolkit/db/pglite-pool.ts';
import { catalogGroups, FOLD_LOCK, tidyGroups, TOTALS, zeroTotals, type Group, type ZeroGroups } from './groups.ts';
import { countTotalled } from './queue-marks.ts';

/**
 * Queued plays totalled per statement: each costs a mark on its row and a share of a few upserts,
 * about a quarter of what folding it costs (100k plays in ~5 s on PGlite, where folding them takes
 * ~20 s), so a batch holds the embedded database about as long as a fold batch (~0.15 s).
 */
const BATCH = 2_500;

/**
 * The CTEs `groups_new` and `groups`: (track_id, artist_id, album_id, genre, duration) for the
 * tracks of `source` (a CTE of queued rows) as stats_track_groups keeps them, a track met for the
 * first time recorded there from the catalog (groups.ts).
 */
export const trackGroupsOf = (source: string) => sql`
  groups_new as (
    insert into stats_track_groups (track_id, artist_id, album_id, genre, duration)
    select * from ${catalogGroups} c where c.track_id in (select track_id from ${sql.table(source)}) order by 1
    on conflict (track_id) do nothing
    returning track_id, artist_id, album_id, genre, duration
  ),
  groups as (
    select * from groups_new
    union all
    select track_id, artist_id, album_id, genre, duration from stats_track_groups where track_id in (select track_id from ${sql.table(source)})
  )`;

/**
 * The CTEs `totals` (user_id, track_id, plays), `artists` and `albums` (user_id, id, plays): the
 * changes of `source` (a CTE of queued rows of live users) added to the all-time totals per track,
 * and per artist and album by `groups` (trackGroupsOf). Upserts in key order.
 */
export const allTimeTotalsOf = (source: string) => sql`
  totals as (
    insert into stats_track_totals (user_id, track_id, plays)
    select user_id, track_id, sum(delta) from ${sql.table(source)} group by 1, 2 order by 1, 2
    on conflict (user_id, track_id) do update set plays = stats_track_totals.plays + excluded.plays
    returning user_id, track_id, plays
  ),
  artists as (${groupTotals(source, 'artist')}),
  albums as (${groupTotals(source, 'album')})`;

/** The upsert of `source`'s changes into a group's all-time totals, by `groups`, returning (user_id, id, plays). */
function groupTotals(source: string, group: Group) {
  const table = sql.table(TOTALS[group]);
  const column = sql.ref(`${group}_id`);
  const id = sql.ref(`g.${group}_id`);
  return sql`insert into ${table} (user_id, ${column}, plays)
    select l.user_id, ${id}, sum(l.delta) from ${sql.table(source)} l join groups g using (track_id) where ${id} is not null
    group by 1, 2 having sum(l.delta) <> 0 order by 1, 2
    on conflict (user_id, ${column}) do update set plays = ${table}.plays + excluded.plays
    returning user_id, ${column} as id, plays`;
}

/** The zero_totals column of a statement with allTimeTotalsOf's CTEs: track totals counted down to nothing. */
export const zeroTrackTotals = sql`(select json_agg(json_build_object('user_id', user_id, 'track_id', track_id)) from totals where plays = 0) as zero_totals`;

/** Deletes the track totals a statement counted down to zero (in a later statement, which sees them). */
export async function tidyTrackTotals(tx: Transaction<DB>, zero: { user_id: string; track_id: string }[] | null): Promise<void> {
  if (!zero) return;
  await sql`delete from stats_track_totals t using json_to_recordset(${JSON.stringify(zero)}::json) z (user_id uuid, track_id uuid)
    where t.user_id = z.user_id and t.track_id = z.track_id and t.plays = 0`.execute(tx);
}

interface Totalled extends ZeroGroups {
  taken: number;
  zero_totals: { user_id: string; track_id: string }[] | null;
  /** Rows marked per user, to add to stats_queue_users.totalled. */
  taken_by_user: { user_id: string; taken: number }[] | null;
}

/**
 * Marks up to BATCH queued rows not yet totalled (of one user, or of anyone) and adds them to the
 * all-time totals, in one statement; rows of users deleted since are marked and added nowhere, as
 * the fold drops them.
 */
const takeAndTotal = (userId: string | undefined) => sql<Totalled>`
  with taken as (
    update stats_queue set totalled = true
    where ctid = any(array(
      select ctid from stats_queue where not totalled ${userId === undefined ? sql`` : sql`and user_id = ${userId}`}
      limit ${BATCH} for update skip locked
    ))
    returning user_id, track_id, delta
  ),
  live as (select t.* from taken t where exists (select 1 from users u where u.id = t.user_id)),
  ${trackGroupsOf('live')},
  ${allTimeTotalsOf('live')}
  select (select count(*)::int from taken) as taken, ${zeroTrackTotals}, ${zeroTotals},
    (select json_agg(json_build_object('user_id', user_id, 'taken', n)) from (select user_id, count(*) as n from taken group by 1) t) as taken_by_user`;

/**
 * Totals one batch, of `userId`'s rows or anyone's; answers how many queued rows it marked (0 when
 * every such row is totalled, or being folded or totalled elsewhere).
 */
export async function totalBatch(db: Database, userId?: string): Promise<number> {
  return asHeavyWork(() =>
    inTransaction(db, async (tx) => {
      await sql`select pg_advisory_xact_lock(${FOLD_LOCK}::bigint), set_config('jit', 'off', true)`.execute(tx);
      const { rows } = await takeAndTotal(userId).execute(tx);
      const totalled = rows[0]!;
      await tidyTrackTotals(tx, totalled.zero_totals);
      await tidyGroups(tx, totalled);
      await countTotalled(tx, totalled.taken_by_user);
      return totalled.taken;
    }),
  );
}

/**
 * How many rows a user must have queued and not totalled for the step to run: below a fold batch's
 * worth the fold itself takes them within a second, and live plays arriving a few a second would
 * otherwise pay for both (the step cost the fold ~30% of its rate when it ran on every batch).
 */
export const TOTAL_AHEAD_AFTER = 1_000;

/** Whether a user has `after` queued rows or more not totalled yet: a look at the per-user counts, not the queue. */
async function anyToTotal(db: Database, after: number): Promise<boolean> {
  const { rows } = await sql<{ any: boolean }>`select exists (select 1 from stats_queue_users where queued - totalled >= ${after}) as any`.execute(db);
  return rows[0]!.any;
}

/**
 * While some user has `after` or more queued rows not totalled (or until `signal` aborts), totals
 * batches of whatever is queued and not totalled; answers how many rows it marked.
 */
export async function totalAhead(db: Database, signal?: AbortSignal, after = TOTAL_AHEAD_AFTER): Promise<number> {
  let total = 0;
  while (!signal?.aborted && (await anyToTotal(db, after))) {
    const taken = await totalBatch(db);
    total += taken;
    if (taken === 0) break;
  }
  return total;
}

/**
 * The plays an import may leave untotalled and still total itself when it ends: two steps' worth,
 * or a quarter of what it stored. A server's fold job totals an import while it arrives and stays
 * behind it by about a second's worth (~20k plays on PGlite, where the two share one thread); a
 * rest near the whole import means no job ran beside it (a CLI import into a stopped server's
 * directory, the import benchmark), and totalling all of it would add about half the import's time.
 */
export const totalAtImportEnd = (storedPlays: number) => Math.max(2 * BATCH, Math.floor(storedPlays / 4));

/**
 * Totals `userId`'s queued plays not yet totalled, when there are at most `atMost` of them (counted
 * in stats_queue_users, not the queue); answers how many it totalled. Afterwards their all-time
 * reads skip the queue (anyUntotalled), so a profile visited right after an import reads as at
 * steady state; anything larger is left to the fold job.
 */
export async function totalQueuedOf(db: Database, userId: string, atMost: number): Promise<number> {
  const row = await db
    .selectFrom('stats_queue_users')
    .select((eb) => eb('queued', '-', eb.ref('totalled')).as('left'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const left = Number(row?.left ?? 0);
  if (left === 0 || left > atMost) return 0;
  let total = 0;
  for (;;) {
    const taken = await totalBatch(db, userId);
    if (taken === 0) return total;
    total += taken;
  }
}
