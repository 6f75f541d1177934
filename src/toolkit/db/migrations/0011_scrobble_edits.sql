-- When the user last corrected a play (its time or its song) through updateScrobble; null for a
-- play as it was submitted. `submitted` keeps the client's original record either way, so this
-- says whether that record still describes the play (ListenBrainz reads echo it only while null).
alter table scrobbles add column edited_at timestamptz;
