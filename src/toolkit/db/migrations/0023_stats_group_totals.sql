-- All-time plays per user and artist, and per user and album (src/core/stats/rollups/groups.ts):
-- a user's all-time top artists and albums read one row per artist or album they played instead
-- of grouping their per-track totals through `tracks` at request time. Folded with the other
-- rollups, in the fold's statement, and keyed by user so an account's deletion takes them along.
-- Each holds the sum of stats_track_totals over the tracks stats_track_groups puts in it.
create table stats_artist_totals (
  user_id   uuid not null references users (id) on delete cascade,
  artist_id uuid not null,
  plays     integer not null,
  primary key (user_id, artist_id) include (plays)
);
create table stats_album_totals (
  user_id  uuid not null references users (id) on delete cascade,
  album_id uuid not null,
  plays    integer not null,
  primary key (user_id, album_id) include (plays)
);

-- The artist and album under which each track's folded plays are counted: tracks' own as the fold
-- first met the track, then as the fold last regrouped it. Kept apart from `tracks` so a catalog
-- edit (a merge, its undo, an edited song) never waits for the fold nor the fold for it: the edit
-- only notes the track in stats_regroup; the next fold moves the track's totals and this row.
-- No foreign keys: a track merged away keeps its row, so its queued removals are taken off where
-- its plays were counted.
create table stats_track_groups (
  track_id  uuid primary key,
  artist_id uuid,
  album_id  uuid
);

-- Tracks whose artist or album changed since the fold last regrouped them: appended by the trigger
-- below in the editor's transaction, taken by the fold. Usually empty; no key, like stats_queue.
create table stats_regroup (
  track_id uuid not null
);

create function stats_track_regrouped() returns trigger language plpgsql as $$
begin
  insert into stats_regroup (track_id) values (new.id);
  return null;
end $$;

create trigger tracks_stats_regrouped after update of artist_id, album_id on tracks
  for each row when (old.artist_id is distinct from new.artist_id or old.album_id is distinct from new.album_id)
  execute function stats_track_regrouped();

-- A track back in the catalog (an undone song merge restores the track it deleted) may come back
-- under other groups than those its counted plays are under (an album merge moved it meanwhile):
-- noted too. One index probe per new track; new tracks have no groups yet and note nothing.
create function stats_track_returned() returns trigger language plpgsql as $$
begin
  insert into stats_regroup (track_id) select n.id from new_rows n join stats_track_groups g on g.track_id = n.id;
  return null;
end $$;

create trigger tracks_stats_returned after insert on tracks referencing new table as new_rows
  for each statement execute function stats_track_returned();

-- stats_rebuild() as migration 0021 defines it, plus these; it also empties stats_queue_users,
-- which 0021's version (written beside 0020) left counting rows the truncate removed.
create or replace function stats_rebuild() returns bigint language plpgsql as $$
declare
  counted bigint;
begin
  truncate stats_queue, stats_queue_users, stats_track_counts, stats_hours, stats_first_plays, stats_track_totals, stats_catalog_plays,
    stats_artist_totals, stats_album_totals, stats_track_groups, stats_regroup;
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
  perform stats_group_totals_fill();
  select coalesce(sum(plays), 0) into counted from stats_track_totals;
  return counted;
end $$;

-- The group totals of the track totals there are, under tracks' artists and albums now: for the
-- rebuild (after the truncate) and for this upgrade (the tables are new).
create function stats_group_totals_fill() returns void language plpgsql as $$
begin
  insert into stats_track_groups (track_id, artist_id, album_id)
    select id, artist_id, album_id from tracks where id in (select track_id from stats_track_totals) order by 1;
  insert into stats_artist_totals (user_id, artist_id, plays)
    select tt.user_id, g.artist_id, sum(tt.plays) from stats_track_totals tt join stats_track_groups g using (track_id)
    where g.artist_id is not null group by 1, 2 having sum(tt.plays) <> 0 order by 1, 2;
  insert into stats_album_totals (user_id, album_id, plays)
    select tt.user_id, g.album_id, sum(tt.plays) from stats_track_totals tt join stats_track_groups g using (track_id)
    where g.album_id is not null group by 1, 2 having sum(tt.plays) <> 0 order by 1, 2;
end $$;

select stats_group_totals_fill();
