-- All-time plays per user and track, folded from stats_queue with the other rollups
-- (src/core/stats/rollups/fold.ts): catalog play counts and listeners (search ranking, getSongs'
-- playCount sort and filter, artist and album pages) and all-time top lists read these instead of
-- counting plays at request time. Keyed by user, like every rollup, so an account's deletion takes
-- its plays with it and readers add the queued changes by the rule the other rollups follow
-- (src/core/stats/rollups/reads.ts); a track's listeners are its rows with plays. track_id has no
-- foreign key: a merged-away track's rows drop to zero when the queued re-pointing is folded.
create table stats_track_totals (
  user_id  uuid not null references users (id) on delete cascade,
  track_id uuid not null,
  plays    integer not null,
  primary key (user_id, track_id) include (plays)
);
-- A song's (or, through tracks, an album's or artist's) totals: one index range per track.
create index stats_track_totals_track_idx on stats_track_totals (track_id) include (user_id, plays);

-- Everyone's all-time plays per track, kept equal to the sum of stats_track_totals by the triggers
-- below (statement-level, so the fold's upserts, their tidying and an account's cascaded deletion
-- all move it in their own transaction): search and getSongs rank every matching song by plays,
-- and one row per track is one index probe, where the per-user rows are about one per play.
create table stats_catalog_plays (
  track_id uuid not null,
  plays    integer not null,
  primary key (track_id) include (plays)
);

create function stats_catalog_plays_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into stats_catalog_plays (track_id, plays)
      select track_id, sum(plays) from new_rows where plays <> 0 group by 1 order by 1
      on conflict (track_id) do update set plays = stats_catalog_plays.plays + excluded.plays;
  elsif tg_op = 'DELETE' then
    insert into stats_catalog_plays (track_id, plays)
      select track_id, -sum(plays) from old_rows where plays <> 0 group by 1 order by 1
      on conflict (track_id) do update set plays = stats_catalog_plays.plays + excluded.plays;
  else
    insert into stats_catalog_plays (track_id, plays)
      select n.track_id, sum(n.plays - o.plays) from new_rows n join old_rows o using (user_id, track_id) where n.plays <> o.plays group by 1 order by 1
      on conflict (track_id) do update set plays = stats_catalog_plays.plays + excluded.plays;
  end if;
  return null;
end $$;

create trigger stats_track_totals_inserted after insert on stats_track_totals referencing new table as new_rows
  for each statement execute function stats_catalog_plays_follow();
create trigger stats_track_totals_updated after update on stats_track_totals referencing old table as old_rows new table as new_rows
  for each statement execute function stats_catalog_plays_follow();
create trigger stats_track_totals_deleted after delete on stats_track_totals referencing old table as old_rows
  for each statement execute function stats_catalog_plays_follow();

-- stats_rebuild() as migration 0012 defines it, plus the totals: it truncates the queue, so every
-- rollup fed by the queue must be recomputed with it (stats_catalog_plays by the triggers).
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_track_counts, stats_hours, stats_first_plays, stats_track_totals, stats_catalog_plays;
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
  insert into stats_track_totals (user_id, track_id, plays)
    select user_id, track_id, sum(plays) from stats_track_counts where grain = 'y' group by 1, 2 order by 1, 2;
  select coalesce(sum(plays), 0) into counted from stats_track_totals;
  return counted;
end $$;

-- The history an upgrade finds, less what is still queued (the readers add that), so nothing else
-- needs recomputing: the queued rows of accounts still there, as readers count them.
insert into stats_track_totals (user_id, track_id, plays)
  select user_id, track_id, sum(n) from (
    select user_id, track_id, 1 from scrobbles
    union all
    select q.user_id, q.track_id, -q.delta from stats_queue q where exists (select 1 from users u where u.id = q.user_id)
  ) history (user_id, track_id, n)
  group by 1, 2 having sum(n) <> 0 order by 1, 2;
