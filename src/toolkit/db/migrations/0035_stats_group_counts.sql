-- The year rows of migration 0032 become group counts of two grains: per UTC year ('y') as before,
-- and per UTC month ('m'). A window of months (the last 30 or 90 days, Wrapped's rolling periods)
-- then sums a month's few thousand group rows instead of joining each of its ~6k tracks to its
-- groups at request time, as a calendar year already did (src/core/stats/rollups/window-groups.ts).
-- Same columns as stats_track_counts names them: the grain, and the period's start.
alter table stats_year_groups rename to stats_group_counts;
alter table stats_group_counts rename column year to period_start;
alter table stats_group_counts add column grain "char" not null default 'y' check (grain in ('y', 'm'));
alter table stats_group_counts alter column grain drop default;
alter table stats_group_counts drop constraint stats_year_groups_pkey;
alter table stats_group_counts add primary key (user_id, grain, period_start, dim, key) include (plays, measured, played_ms, unmeasured_ms);

-- The group rows of the yearly and monthly track counts, under the groups stats_track_groups names.
drop function stats_year_groups_fill();
create function stats_group_counts_fill() returns void language plpgsql as $$
begin
  insert into stats_group_counts (user_id, grain, period_start, dim, key, plays, measured, played_ms, unmeasured_ms)
    select c.user_id, c.grain, c.period_start, d.dim, d.key, sum(c.plays), sum(c.measured), sum(c.played_ms),
      coalesce(sum(g.duration::bigint * (c.plays - c.measured)), 0)
    from stats_track_counts c join stats_track_groups g using (track_id)
    cross join lateral (values ('a'::"char", g.artist_id::text), ('l'::"char", g.album_id::text), ('g'::"char", g.genre), ('t'::"char", '')) d (dim, key)
    where c.grain in ('y', 'm') and d.key is not null
    group by 1, 2, 3, 4, 5 having sum(c.plays) <> 0 order by 1, 2, 3, 4, 5;
end $$;

-- The year rows again with the month rows beside them: one algorithm, from the same track counts.
delete from stats_group_counts;
select stats_group_counts_fill();

-- stats_group_totals_fill() as migration 0032 defines it, filling both grains.
create or replace function stats_group_totals_fill() returns void language plpgsql as $$
begin
  insert into stats_track_groups (track_id, artist_id, album_id, genre, duration)
    select t.id, t.artist_id, t.album_id, coalesce(t.genre, al.genre), t.duration from tracks t left join albums al on al.id = t.album_id
    where t.id in (select track_id from stats_track_totals) order by 1;
  insert into stats_artist_totals (user_id, artist_id, plays)
    select tt.user_id, g.artist_id, sum(tt.plays) from stats_track_totals tt join stats_track_groups g using (track_id)
    where g.artist_id is not null group by 1, 2 having sum(tt.plays) <> 0 order by 1, 2;
  insert into stats_album_totals (user_id, album_id, plays)
    select tt.user_id, g.album_id, sum(tt.plays) from stats_track_totals tt join stats_track_groups g using (track_id)
    where g.album_id is not null group by 1, 2 having sum(tt.plays) <> 0 order by 1, 2;
  perform stats_group_counts_fill();
end $$;

-- stats_rebuild() as migration 0032 defines it, truncating the table under its new name.
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_queue_users, stats_track_counts, stats_hours, stats_track_totals, stats_catalog_plays,
    stats_artist_totals, stats_album_totals, stats_track_groups, stats_regroup, stats_group_counts;
  insert into stats_track_counts (user_id, grain, period_start, track_id, plays, measured, played_ms)
    select s.user_id, g.grain, date_trunc(g.unit, s.listened_at, 'UTC'), s.track_id, count(*), count(s.played_ms), coalesce(sum(s.played_ms), 0)
    from scrobbles s cross join (values ('y'::"char", 'year'), ('m'::"char", 'month'), ('d'::"char", 'day')) g (grain, unit)
    group by 1, 2, 3, 4 order by 1, 2, 3, 4;
  insert into stats_hours (user_id, hour, q0, q1, q2, q3)
    select user_id, hour, count(*) filter (where quarter = 0), count(*) filter (where quarter = 1),
      count(*) filter (where quarter = 2), count(*) filter (where quarter = 3)
    from (select user_id, date_trunc('hour', listened_at, 'UTC') as hour, extract(minute from listened_at at time zone 'UTC')::int / 15 as quarter from scrobbles) q
    group by 1, 2 order by 1, 2;
  insert into stats_track_totals (user_id, track_id, plays)
    select user_id, track_id, sum(plays) from stats_track_counts where grain = 'y' group by 1, 2 order by 1, 2;
  perform stats_group_totals_fill();
  select coalesce(sum(plays), 0) into counted from stats_track_totals;
  return counted;
end $$;
