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
