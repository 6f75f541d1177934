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

-- stats_rebuild() as migration 0012 defines it, plus the totals: it truncates the queue, so every
-- rollup fed by the queue must be recomputed with it.
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_track_counts, stats_hours, stats_first_plays, stats_track_totals;
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
