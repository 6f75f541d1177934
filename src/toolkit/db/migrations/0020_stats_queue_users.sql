-- Who has plays queued for the statistics' fold (src/core/stats/rollups/queue-marks.ts), so a
-- statistics read never pays for a big queue that is not its user's: readers scan stats_queue
-- (unindexed on purpose, see 0012_stats_rollups.sql) only when their user has a row here, and the
-- fold reclaims the queue's space (truncates it) once nothing is queued.
-- One row per user with queued changes: `queued` is how many stats_queue rows that user has (+1
-- and -1 rows alike, including a deleted account's until the fold drops them; no foreign key, as
-- for the queue). The statement triggers that append to the queue keep it, in the writer's own
-- transaction (so the queue and this count agree in every snapshot and after a crash), touching one
-- row per user a statement changes, not one per play; the fold counts down what it takes and
-- deletes a row that reaches zero.
create table stats_queue_users (
  user_id uuid primary key,
  queued  bigint not null check (queued > 0)
);

-- Each trigger counts what it queued per user and upserts those counts in key order, so writers
-- touching several users never deadlock on these rows.
create or replace function stats_queue_inserted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, 1 from new_rows returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
  return null;
end $$;

create or replace function stats_queue_deleted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta) select user_id, track_id, listened_at, -1 from old_rows returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
  return null;
end $$;

create or replace function stats_queue_updated() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta)
      select o.user_id, o.track_id, o.listened_at, -1 from old_rows o join new_rows n on n.id = o.id
        where (o.user_id, o.track_id, o.listened_at) is distinct from (n.user_id, n.track_id, n.listened_at)
      union all
      select n.user_id, n.track_id, n.listened_at, 1 from old_rows o join new_rows n on n.id = o.id
        where (o.user_id, o.track_id, o.listened_at) is distinct from (n.user_id, n.track_id, n.listened_at)
    returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
  return null;
end $$;

-- A rebuild empties the queue, so its count too.
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_queue_users, stats_track_counts, stats_hours, stats_first_plays;
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

-- What the queue holds now, counted.
insert into stats_queue_users (user_id, queued) select user_id, count(*) from stats_queue group by 1;
