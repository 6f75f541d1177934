-- What a window's statistics read of each track they count (src/core/stats/wrapped.ts): its
-- artist, album, duration and own genre, from the index alone. A year's ~20k per-track rollup
-- rows come in track order and merge with this index; joined with `tracks` itself they were
-- hashed and probed by a scan of the whole table, each row taken apart up to its 24th column.
create index tracks_listening_idx on tracks (id) include (artist_id, album_id, duration, genre);
