-- Credentials of the Last.fm 2.0 and Audioscrobbler 1.2 protocols. Session keys, tokens and
-- session ids are random and stored only as SHA-256 digests, like access tokens.

-- A Last.fm session key never expires; it ends when its API key is removed.
create table lastfm_sessions (
  id         uuid primary key default gen_random_uuid(),
  user_id    uuid not null references users (id) on delete cascade,
  api_key_id uuid not null references api_keys (id) on delete cascade,
  key_hash   text not null unique,
  created_at timestamptz not null default now()
);
create index lastfm_sessions_user_idx on lastfm_sessions (user_id);
create index lastfm_sessions_api_key_idx on lastfm_sessions (api_key_id);

-- Desktop-flow tokens: user_id is set when the user approves the token on the authorization page.
create table lastfm_tokens (
  token_hash text primary key,
  api_key_id uuid not null references api_keys (id) on delete cascade,
  user_id    uuid references users (id) on delete cascade,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index lastfm_tokens_api_key_idx on lastfm_tokens (api_key_id, expires_at);

-- Audioscrobbler 1.2 authenticates with md5(md5(password) + timestamp), so the server must know
-- md5(password). The "password" is the API key: 128 random bits, so its MD5 cannot be reversed by
-- guessing the way a human password's could. Keys created before this column have none.
alter table api_keys add column audioscrobbler_digest text;

create table audioscrobbler_sessions (
  session_hash text primary key,
  user_id      uuid not null references users (id) on delete cascade,
  api_key_id   uuid not null references api_keys (id) on delete cascade,
  expires_at   timestamptz not null,
  created_at   timestamptz not null default now()
);
create index audioscrobbler_sessions_user_idx on audioscrobbler_sessions (user_id, expires_at);
create index audioscrobbler_sessions_api_key_idx on audioscrobbler_sessions (api_key_id);
