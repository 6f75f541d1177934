-- True listening time: how long a play actually lasted, where the client said so (ListenBrainz
-- additional_info.duration_played, a Spotify export's ms_played, a media server's stop event, the
-- API's playedMs). Null when no one said: statistics then count the track's duration instead.
alter table scrobbles add column played_ms integer check (played_ms >= 0);

-- The queue carries each change's played time, so the fold can sum it like the counts.
alter table stats_queue add column played_ms integer;

-- Per user, track and period: how many of the plays had a played time (`measured`) and their sum.
-- Listening time is then played_ms + duration × (plays - measured): the duration is read at query
-- time, as before, so filling a track's duration later still counts. Both join the covering index,
-- so a window's listening time is read from the same index pages as its counts.
alter table stats_track_counts
  add column measured integer not null default 0,
  add column played_ms bigint not null default 0;
alter table stats_track_counts drop constraint stats_track_counts_pkey;
alter table stats_track_counts add primary key (user_id, grain, period_start, track_id) include (plays, measured, played_ms);

-- The triggers of migration 0020, carrying played_ms; a change of only the played time re-queues the play.
create or replace function stats_queue_inserted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms) select user_id, track_id, listened_at, 1, played_ms from new_rows returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
  return null;
end $$;

create or replace function stats_queue_deleted() returns trigger language plpgsql as $$
begin
  with queued as (
    insert into stats_queue (user_id, track_id, listened_at, delta, played_ms) select user_id, track_id, listened_at, -1, played_ms from old_rows returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
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
    returning user_id
  )
  insert into stats_queue_users (user_id, queued) select user_id, count(*) from queued group by 1 order by 1
    on conflict (user_id) do update set queued = stats_queue_users.queued + excluded.queued;
  return null;
end $$;

-- stats_rebuild() as migration 0023 defines it, with the played time in the counts.
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_queue_users, stats_track_counts, stats_hours, stats_first_plays, stats_track_totals, stats_catalog_plays,
    stats_artist_totals, stats_album_totals, stats_track_groups, stats_regroup;
  insert into stats_track_counts (user_id, grain, period_start, track_id, plays, measured, played_ms)
    select s.user_id, g.grain, date_trunc(g.unit, s.listened_at, 'UTC'), s.track_id, count(*), count(s.played_ms), coalesce(sum(s.played_ms), 0)
    from scrobbles s cross join (values ('y'::"char", 'year'), ('m'::"char", 'month'), ('d'::"char", 'day')) g (grain, unit)
    group by 1, 2, 3, 4 order by 1, 2, 3, 4;
  insert into stats_hours (user_id, hour, q0, q1, q2, q3)
    select user_id, hour, count(*) filter (where quarter = 0), count(*) filter (where quarter = 1),
      count(*) filter (where quarter = 2), count(*) filter (where quarter = 3)
    from (select user_id, date_trunc('hour', listened_at, 'UTC') as hour, extract(minute from listened_at at time zone 'UTC')::int / 15 as quarter from scrobbles) q
    group by 1, 2 order by 1, 2;
  insert into stats_first_plays (user_id, track_id, first_at)
    select user_id, track_id, min(listened_at) from scrobbles group by 1, 2 order by 1, 2;
  insert into stats_track_totals (user_id, track_id, plays)
    select user_id, track_id, sum(plays) from stats_track_counts where grain = 'y' group by 1, 2 order by 1, 2;
  perform stats_group_totals_fill();
  select coalesce(sum(plays), 0) into counted from stats_track_totals;
  return counted;
end $$;
