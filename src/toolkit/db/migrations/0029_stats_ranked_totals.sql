-- The all-time totals per user in play order (src/core/stats/rollups/ranked-totals.ts): a user's
-- most played songs, artists and albums of all time (the profile's top lists, Last.fm's
-- user.getTop*, period overall) are the first rows of one index range, read to the page's end,
-- instead of every total they have (35k track rows for a user with 50k plays) summed and sorted
-- at request time; how many they played is counted off the same range. The id breaks ties as the
-- top lists do. The fold changes plays in every row it touches, which each table's primary key
-- includes, so none of these updates was a HOT one before: each now writes one more index entry.
create index stats_track_totals_ranked_idx on stats_track_totals (user_id, plays desc, track_id);
create index stats_artist_totals_ranked_idx on stats_artist_totals (user_id, plays desc, artist_id);
create index stats_album_totals_ranked_idx on stats_album_totals (user_id, plays desc, album_id);
