-- Statistics read rollups of the plays instead of the whole history (src/core/stats/rollups/).
--
-- Every change to scrobbles (a play stored, deleted, re-pointed or re-timed, by any path: protocols,
-- imports, corrections, catalog merges and their undo, account deletion) appends to stats_queue
-- from a statement trigger, in the writer's own transaction. A background fold moves queued rows
-- into the rollups; readers add the rows still queued, so a play counts the moment it is stored.
-- The history an upgrade finds is rolled up at the end of this migration.
-- The queue has no foreign key: an account's deletion cascades to its scrobbles and queues their
-- removal after the user row is gone; the fold drops rows of users that no longer exist.
-- No key, no sequence, no index: every play pays for this row (an index on it cost imports about
-- a tenth of their rate), the fold needs no order (counts add up in any order; first plays are
-- looked up afresh) and takes rows by their place in the heap, and readers scan what is queued,
-- which the fold keeps to about a second's worth.
create table stats_queue (
  user_id     uuid not null,
  track_id    uuid not null,
  listened_at timestamptz not null,
  -- +1 a play arrived, -1 a play left
  delta       smallint not null check (delta in (-1, 1))
);

-- Plays per user, track and UTC period: grain 'y' (year), 'm' (month), 'd' (day); period_start is
-- the period's first instant. A window is read as whole periods plus raw plays at its edges.
-- track_id has no foreign key: a merged-away track's rows drop to zero when the queued
-- re-pointing is folded. The rollups' indexes cover their counts: a window is read from a few
-- adjacent index pages, never from heap pages scattered by years of folding (measured on a
-- 2.4M-play table with a cold cache: 5 s for one user's year from the heap). That makes every
-- fold's increment a new index entry, which halves the fold's rate; folding is background work.
create table stats_track_counts (
  user_id      uuid not null references users (id) on delete cascade,
  grain        "char" not null check (grain in ('y', 'm', 'd')),
  period_start timestamptz not null,
  track_id     uuid not null,
  plays        integer not null,
  primary key (user_id, grain, period_start, track_id) include (plays)
);

-- Plays per user and UTC hour, by quarter hour: local days, months and hours in zones offset by
-- :30 or :45 (and their DST changes) fall on quarter-hour boundaries, so every zone counts exactly.
create table stats_hours (
  user_id uuid not null references users (id) on delete cascade,
  hour    timestamptz not null,
  q0      integer not null default 0,
  q1      integer not null default 0,
  q2      integer not null default 0,
  q3      integer not null default 0,
  primary key (user_id, hour) include (q0, q1, q2, q3)
);

-- Each user's first play of each track: an artist is new in a window when none of its tracks was
-- played before it (keyed by track so merging artists needs no rewrite here).
create table stats_first_plays (
  user_id  uuid not null references users (id) on delete cascade,
  track_id uuid not null,
  first_at timestamptz not null,
  primary key (user_id, track_id) include (first_at)
);

create function stats_queue_inserted() returns trigger language plpgsql as $$
begin
  insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, 1 from new_rows;
  return null;
end $$;

create function stats_queue_deleted() returns trigger language plpgsql as $$
begin
  insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, -1 from old_rows;
  return null;
end $$;

-- Only a change of what or when was played moves a count; other updates queue nothing.
create function stats_queue_updated() returns trigger language plpgsql as $$
begin
  insert into stats_queue (user_id, track_id, listened_at, delta)
    select o.user_id, o.track_id, o.listened_at, -1 from old_rows o join new_rows n on n.id = o.id
      where (o.user_id, o.track_id, o.listened_at) is distinct from (n.user_id, n.track_id, n.listened_at)
    union all
    select n.user_id, n.track_id, n.listened_at, 1 from old_rows o join new_rows n on n.id = o.id
      where (o.user_id, o.track_id, o.listened_at) is distinct from (n.user_id, n.track_id, n.listened_at);
  return null;
end $$;

-- The plays' way into the statistics: whatever writes scrobbles (insertScrobbles in
-- src/core/scrobbling/ingest.ts for every protocol and import, corrections, merges, deletions)
-- fires these triggers, which queue the change in stats_queue; the TypeScript fold, foldBatch and
-- the serving process's statsFoldJob in src/core/stats/rollups/fold.ts, empties the queue into
-- the rollups above.
create trigger scrobbles_stats_inserted after insert on scrobbles referencing new table as new_rows
  for each statement execute function stats_queue_inserted();
create trigger scrobbles_stats_deleted after delete on scrobbles referencing old table as old_rows
  for each statement execute function stats_queue_deleted();
create trigger scrobbles_stats_updated after update on scrobbles referencing old table as old_rows new table as new_rows
  for each statement execute function stats_queue_updated();

-- Every rollup computed afresh from the raw plays, set-based (seconds for millions of plays):
-- here for the history an upgrade finds, and by `earshot stats rebuild` (src/core/stats/rollups/
-- rebuild.ts, which first stops writers). Rows go in key order, so each user's rows start out
-- side by side in the heap as in the index. Answers how many plays it counted.
create function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_track_counts, stats_hours, stats_first_plays;
  insert into stats_track_counts (user_id, grain, period_start, track_id, plays)
    select s.user_id, g.grain, date_trunc(g.unit, s.listened_at, 'UTC'), s.track_id, count(*)
    from scrobbles s cross join (values ('y'::"char", 'year'), ('m'::"char", 'month'), ('d'::"char", 'day')) g (grain, unit)
    group by 1, 2, 3, 4 order by 1, 2, 3, 4;
  insert into stats_hours (user_id, hour, q0, q1, q2, q3)
    select user_id, hour, count(*) filter (where quarter = 0), count(*) filter (where quarter = 1),
      count(*) filter (where quarter = 2), count(*) filter (where quarter = 3)
    from (select user_id, date_trunc('hour', listened_at, 'UTC') as hour, extract(minute from listened_at at time zone 'UTC')::int / 15 as quarter from scrobbles) q
    group by 1, 2 order by 1, 2;
  insert into stats_first_plays (user_id, track_id, first_at)
    select user_id, track_id, min(listened_at) from scrobbles group by 1, 2 order by 1, 2;
  select coalesce(sum(plays), 0) into counted from stats_track_counts where grain = 'y';
  return counted;
end $$;

select stats_rebuild();
