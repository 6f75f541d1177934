-- Per user and UTC day, the day's plays up to each quarter hour: upto[i] is the plays in its first
-- i quarters (i = 1..96; upto[96] the day's plays). In a zone whose offset holds all day, the local
-- date turns once in a UTC day, on a quarter, so a local day's plays are one or two subscripts and
-- a UTC day's one; the plays per quarter of the day, summed over such days with the same offset,
-- give the plays per local hour. A year of local days and hours is then 365 rows, not the 8,760
-- of stats_hours each converted to local time (reads: local-days.ts). Folded with the other
-- rollups; stats_days_fill() rebuilds it from stats_hours.
create table stats_days (
  user_id uuid not null references users (id) on delete cascade,
  day     timestamptz not null,
  upto    integer[] not null,
  primary key (user_id, day)
);

-- Two days' counts added element by element: the fold adds a batch's running counts to a day's.
create function stats_days_add(a integer[], b integer[]) returns integer[] language sql immutable as $$
  select array_agg(x + y order by n) from unnest(a, b) with ordinality u (x, y, n)
$$;

-- The day rows from the hourly rollup (run after stats_rebuild(), which fills stats_hours): each
-- day's 24 hours of quarters, missing ones zero, flattened into 96 and summed as they run (a
-- grid of a day's 96 quarters joined to its counts took three times as long).
create function stats_days_fill() returns void language plpgsql as $$
begin
  truncate stats_days;
  insert into stats_days (user_id, day, upto)
    select user_id, day, (select array_agg(s::int order by n) from (select sum(v) over (order by n) as s, n from unnest(quarters) with ordinality u (v, n)) r)
    from (
      select d.user_id, d.day, array_agg(array[coalesce(h.q0, 0), coalesce(h.q1, 0), coalesce(h.q2, 0), coalesce(h.q3, 0)] order by s.slot) as quarters
      from (select distinct user_id, date_bin('1 day', hour, timestamptz '2000-01-01 00:00:00+00') as day from stats_hours) d
      cross join generate_series(0, 23) s (slot)
      left join stats_hours h on h.user_id = d.user_id and h.hour = d.day + s.slot * interval '1 hour'
      group by 1, 2
    ) days
    order by 1, 2;
end $$;

select stats_days_fill();

-- The tracks the fold counts under an artist: Wrapped asks which of a few artists' tracks have
-- plays at a window's edges (window-groups.ts), which was a scan of every track's groups.
create index stats_track_groups_artist_idx on stats_track_groups (artist_id);
