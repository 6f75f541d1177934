-- Whether a user's queued changes may take plays away (rows with delta < 0: a deleted or edited
-- play), beside the count and span of migrations 0020 and 0031, so a read that counts only the
-- plays leaving skips the queue when there can be none: after a bulk import (~100k queued plays,
-- all arriving) Wrapped's new-artist check then reads no queue for its lower bound
-- (src/core/stats/rollups/queue-marks.ts). Set by the triggers that queue removals, in the
-- writer's transaction; never cleared by the fold (the row goes when its count reaches zero), so
-- it stays a bound, if a loose one, meanwhile.
alter table stats_queue_users add column leaving boolean not null default false;
update stats_queue_users m set leaving = true where exists (select 1 from stats_queue q where q.user_id = m.user_id and q.delta < 0);

-- The triggers of migration 0031: the deletions' and edits' also mark what they queue as leaving.
create or replace function stats_queue_deleted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms) select user_id, track_id, listened_at, -1, played_ms from old_rows returning user_id, listened_at
  )
  insert into stats_queue_users (user_id, queued, first_at, last_at, leaving)
    select user_id, count(*), min(listened_at), max(listened_at), true from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued,
      first_at = least(stats_queue_users.first_at, excluded.first_at), last_at = greatest(stats_queue_users.last_at, excluded.last_at),
      leaving = true;
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
    returning user_id, listened_at, delta
  )
  insert into stats_queue_users (user_id, queued, first_at, last_at, leaving)
    select user_id, count(*), min(listened_at), max(listened_at), bool_or(delta < 0) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued,
      first_at = least(stats_queue_users.first_at, excluded.first_at), last_at = greatest(stats_queue_users.last_at, excluded.last_at),
      leaving = stats_queue_users.leaving or excluded.leaving;
  return null;
end $$;
