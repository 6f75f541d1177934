-- The span of each user's queued plays, so a statistics read over a window skips the queue (which
-- has no index, see 0012_stats_rollups.sql) when none of the user's queued plays can fall in it:
-- after a bulk import of older plays, the last 30 days' Wrapped, charts and clock then read no
-- queue at all instead of scanning the user's whole import (src/core/stats/rollups/queue-marks.ts).
-- first_at and last_at bound the listened_at of every stats_queue row of the user: the triggers
-- widen them in the writer's transaction, as they count `queued`; the fold never narrows them
-- (the row goes when its count reaches zero), so they stay a bound, if a loose one, meanwhile.
alter table stats_queue_users add column first_at timestamptz, add column last_at timestamptz;
update stats_queue_users m set first_at = q.first_at, last_at = q.last_at
  from (select user_id, min(listened_at) as first_at, max(listened_at) as last_at from stats_queue group by 1) q
  where q.user_id = m.user_id;
-- A count without queued rows (never so while the triggers run) gets a span covering all time.
update stats_queue_users set first_at = '-infinity', last_at = 'infinity' where first_at is null;
alter table stats_queue_users alter column first_at set not null, alter column last_at set not null;

-- The triggers of migration 0027, keeping the span beside the count.
create or replace function stats_queue_inserted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms) select user_id, track_id, listened_at, 1, played_ms from new_rows returning user_id, listened_at
  )
  insert into stats_queue_users (user_id, queued, first_at, last_at)
    select user_id, count(*), min(listened_at), max(listened_at) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued,
      first_at = least(stats_queue_users.first_at, excluded.first_at), last_at = greatest(stats_queue_users.last_at, excluded.last_at);
  return null;
end $$;

create or replace function stats_queue_deleted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms) select user_id, track_id, listened_at, -1, played_ms from old_rows returning user_id, listened_at
  )
  insert into stats_queue_users (user_id, queued, first_at, last_at)
    select user_id, count(*), min(listened_at), max(listened_at) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued,
      first_at = least(stats_queue_users.first_at, excluded.first_at), last_at = greatest(stats_queue_users.last_at, excluded.last_at);
  return null;
end $$;

create or replace function stats_queue_updated() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms)
      select o.user_id, o.track_id, o.listened_at, -1, o.played_ms from old_rows o join new_rows n on n.id = o.id
        where (o.user_id, o.track_id, o.listened_at, o.played_ms) is distinct from (n.user_id, n.track_id, n.listened_at, n.played_ms)
      union all
      select n.user_id, n.track_id, n.listened_at, 1, n.played_ms from old_rows o join new_rows n on n.id = o.id
        where (o.user_id, o.track_id, o.listened_at, o.played_ms) is distinct from (n.user_id, n.track_id, n.listened_at, n.played_ms)
    returning user_id, listened_at
  )
  insert into stats_queue_users (user_id, queued, first_at, last_at)
    select user_id, count(*), min(listened_at), max(listened_at) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued,
      first_at = least(stats_queue_users.first_at, excluded.first_at), last_at = greatest(stats_queue_users.last_at, excluded.last_at);
  return null;
end $$;
