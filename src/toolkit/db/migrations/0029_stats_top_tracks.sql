-- A user's all-time totals in play order (src/core/stats/rollups/top-tracks.ts): their most played
-- songs of all time (the profile's top songs, Last.fm's user.getTopTracks, period overall) are the
-- first rows of one index range, read to the page's end, instead of every track total they have
-- (35k rows for a user with 50k plays) summed and sorted at request time. The id breaks ties as the
-- top lists do. The fold updates the plays of the rows it touches in both indexes already (the
-- primary key includes plays), so no update of these rows was a HOT one before this either.
create index stats_track_totals_top_idx on stats_track_totals (user_id, plays desc, track_id);
