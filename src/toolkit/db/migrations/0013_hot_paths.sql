-- A song's play count and distinct listeners (getSongs, search, album and artist pages) read
-- every play of the song. Among many users' interleaved plays those rows sit on as many heap
-- pages as there are plays; with user_id in the index they are counted from the index alone
-- (an index-only scan once vacuum has marked the pages visible). It replaces the track_id
-- index: every lookup by track_id uses its leading column.
create index scrobbles_track_user_idx on scrobbles (track_id, user_id);
drop index scrobbles_track_idx;
