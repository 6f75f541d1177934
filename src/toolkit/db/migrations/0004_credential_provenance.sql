-- Anything a credential creates dies with it: the access token that created another access
-- token or an API key is recorded, so revoking it removes what it made (and, through the
-- existing cascades, the Last.fm and Audioscrobbler sessions of those keys). Null means a
-- sign-in session created it; sessions are short-lived JWTs with no row to revoke.
alter table access_tokens
  add column created_by_token_id uuid references access_tokens (id) on delete cascade;
create index access_tokens_created_by_idx on access_tokens (created_by_token_id);

alter table api_keys
  add column created_by_token_id uuid references access_tokens (id) on delete cascade;
create index api_keys_created_by_idx on api_keys (created_by_token_id);

-- The Last.fm and Audioscrobbler sessions a user granted (perhaps to another user's API key)
-- are listed and revoked by id through app.svc.session.*: Audioscrobbler sessions, keyed by
-- their digest, get an id, and Last.fm sessions record their last use like other credentials.
alter table audioscrobbler_sessions add column id uuid not null unique default gen_random_uuid();
alter table lastfm_sessions add column last_used_at timestamptz;
