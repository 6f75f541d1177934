-- A year's plays per artist, album and genre, and in all (src/core/stats/rollups/window-groups.ts):
-- a calendar year's Wrapped sums a few thousand rows of these instead of the ~20k per-track rows of
-- a heavy listener's year, each joined with the catalog at request time. Per user and UTC year;
-- dim 'a' is an artist (key: its id), 'l' an album (its id), 'g' a genre (its name: the track's
-- own, else its album's), 't' all plays (key ''). Each row holds the plays, how many of them have
-- a played time and its sum (as stats_track_counts, migration 0027), and the listening time of the
-- others: the track's duration for each (unmeasured_ms). Folded with the other rollups, from the
-- groups stats_track_groups names (below); the covering key lets a year be read from the index.
create table stats_year_groups (
  user_id       uuid not null references users (id) on delete cascade,
  year          timestamptz not null,
  dim           "char" not null check (dim in ('a', 'l', 'g', 't')),
  key           text not null,
  plays         integer not null,
  measured      integer not null,
  played_ms     bigint not null,
  unmeasured_ms bigint not null,
  primary key (user_id, year, dim, key) include (plays, measured, played_ms, unmeasured_ms)
);

-- The genre and the duration a track's folded plays are counted under, beside its artist and album
-- (migration 0023): a catalog edit of either moves the track's year rows at the next fold, as an
-- artist or album change moves its totals.
alter table stats_track_groups add column genre text, add column duration integer;
update stats_track_groups g set genre = coalesce(t.genre, al.genre), duration = t.duration
  from tracks t left join albums al on al.id = t.album_id where t.id = g.track_id;

drop trigger tracks_stats_regrouped on tracks;
create trigger tracks_stats_regrouped after update of artist_id, album_id, genre, duration on tracks
  for each row when (old.artist_id is distinct from new.artist_id or old.album_id is distinct from new.album_id
    or old.genre is distinct from new.genre or old.duration is distinct from new.duration)
  execute function stats_track_regrouped();

-- An album's genre is that of its tracks without one of their own.
create function stats_album_regrouped() returns trigger language plpgsql as $$
begin
  insert into stats_regroup (track_id) select id from tracks where album_id = new.id and genre is null;
  return null;
end $$;

create trigger albums_stats_regrouped after update of genre on albums
  for each row when (old.genre is distinct from new.genre) execute function stats_album_regrouped();

-- The year rows of the yearly track counts, under the groups stats_track_groups names.
create function stats_year_groups_fill() returns void language plpgsql as $$
begin
  insert into stats_year_groups (user_id, year, dim, key, plays, measured, played_ms, unmeasured_ms)
    select c.user_id, c.period_start, d.dim, d.key, sum(c.plays), sum(c.measured), sum(c.played_ms),
      coalesce(sum(g.duration::bigint * (c.plays - c.measured)), 0)
    from stats_track_counts c join stats_track_groups g using (track_id)
    cross join lateral (values ('a'::"char", g.artist_id::text), ('l'::"char", g.album_id::text), ('g'::"char", g.genre), ('t'::"char", '')) d (dim, key)
    where c.grain = 'y' and d.key is not null
    group by 1, 2, 3, 4 having sum(c.plays) <> 0 order by 1, 2, 3, 4;
end $$;

select stats_year_groups_fill();

-- stats_group_totals_fill() as migration 0023 defines it, with each track's genre and duration, and the year rows.
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
  perform stats_year_groups_fill();
end $$;

-- Each user's first play of each track (migration 0012) served only Wrapped's new artists, which
-- the year rows now answer (an artist is new in a window when its plays before it sum to none).
drop table stats_first_plays;

-- stats_rebuild() as migration 0027 defines it, without the first plays, with the year rows (through stats_group_totals_fill).
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_queue_users, stats_track_counts, stats_hours, stats_track_totals, stats_catalog_plays,
    stats_artist_totals, stats_album_totals, stats_track_groups, stats_regroup, stats_year_groups;
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

-- A year's tracks in play order: Wrapped's top songs are the first rows of one index range (as the
-- all-time ones are, migration 0029) instead of a sort of the ~20k tracks of a heavy listener's
-- year. Years only: a month's or a day's tracks are few. Each fold of a year row writes one more
-- index entry.
create index stats_track_counts_year_ranked_idx on stats_track_counts (user_id, period_start, plays desc, track_id) where grain = 'y';
