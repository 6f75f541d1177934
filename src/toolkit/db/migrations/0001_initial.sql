-- Earshot schema. Every per-user table carries user_id so a sharded PostgreSQL
-- (Citus) can distribute on it later. Durations are milliseconds.

create extension if not exists pg_trgm with schema public;

create table users (
  id            uuid primary key default gen_random_uuid(),
  did           text not null unique,
  handle        text not null unique,
  display_name  text,
  avatar        text,
  timezone      text not null default 'UTC',
  password_hash text,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  constraint users_handle_lowercase check (handle = lower(handle))
);

create table follows (
  user_id    uuid not null references users (id) on delete cascade,
  subject_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, subject_id)
);
create index follows_subject_idx on follows (subject_id);

create table artists (
  id         uuid primary key default gen_random_uuid(),
  name       text not null,
  -- normalized name used for catalog matching
  name_key   text not null,
  mbid       text,
  picture    text,
  genres     text[] not null default '{}',
  uri        text generated always as ('earshot:artist:' || id::text) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index artists_name_key_idx on artists (name_key);
create unique index artists_mbid_idx on artists (mbid) where mbid is not null;
create index artists_name_trgm_idx on artists using gin (name public.gin_trgm_ops);

create table albums (
  id           uuid primary key default gen_random_uuid(),
  title        text not null,
  title_key    text not null,
  artist       text not null,
  artist_id    uuid references artists (id),
  album_art    text,
  mbid         text,
  release_date text,
  year         integer,
  genre        text,
  label        text,
  uri          text generated always as ('earshot:album:' || id::text) stored,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);
create index albums_key_idx on albums (title_key, artist_id);
create index albums_artist_idx on albums (artist_id);
create unique index albums_mbid_idx on albums (mbid) where mbid is not null;
create index albums_title_trgm_idx on albums using gin (title public.gin_trgm_ops);

create table tracks (
  id                   uuid primary key default gen_random_uuid(),
  title                text not null,
  title_key            text not null,
  artist               text not null,
  artist_id            uuid references artists (id),
  album                text,
  album_id             uuid references albums (id),
  album_artist         text,
  album_art            text,
  duration             integer check (duration is null or duration >= 0),
  track_number         integer,
  disc_number          integer,
  mbid                 text,
  isrc                 text,
  sha256               text,
  acoustid_fingerprint text,
  tags                 text[] not null default '{}',
  streaming_link_a     text,
  video_link           text,
  streaming_link_b     text,
  streaming_link_c     text,
  lyrics               text,
  composer             text,
  genre                text,
  label                text,
  copyright_message    text,
  key                  text,
  bpm                  integer,
  db_version           integer not null default 1,
  uri                  text generated always as ('earshot:song:' || id::text) stored,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now()
);
create index tracks_match_idx on tracks (artist_id, title_key);
create index tracks_album_idx on tracks (album_id);
create index tracks_mbid_idx on tracks (mbid) where mbid is not null;
create index tracks_isrc_idx on tracks (isrc) where isrc is not null;
create index tracks_genre_idx on tracks (lower(genre));
create index tracks_streaming_link_a_idx on tracks (streaming_link_a) where streaming_link_a is not null;
create index tracks_created_idx on tracks (created_at desc, id desc);
create index tracks_title_trgm_idx on tracks using gin (title public.gin_trgm_ops);
create index tracks_artist_trgm_idx on tracks using gin (artist public.gin_trgm_ops);

create table scrobbles (
  id          uuid primary key default gen_random_uuid(),
  user_id     uuid not null references users (id) on delete cascade,
  track_id    uuid not null references tracks (id),
  -- when the listen happened (the API's createdAt)
  listened_at timestamptz not null,
  -- what the client sent, kept verbatim so nothing is lost to catalog matching
  submitted   jsonb not null default '{}',
  source      text not null default 'api',
  created_at  timestamptz not null default now(),
  constraint scrobbles_once unique (user_id, track_id, listened_at)
);
create index scrobbles_feed_idx on scrobbles (listened_at desc, id desc);
create index scrobbles_user_time_idx on scrobbles (user_id, listened_at desc, id desc);
create index scrobbles_track_idx on scrobbles (track_id);

create table now_playing (
  user_id    uuid primary key references users (id) on delete cascade,
  track_id   uuid not null references tracks (id),
  submitted  jsonb not null default '{}',
  started_at timestamptz not null default now(),
  expires_at timestamptz not null
);

-- Stars (the library's term) and likes (the feed's term) are one relation.
create table stars (
  user_id      uuid not null references users (id) on delete cascade,
  subject_kind text not null check (subject_kind in ('song', 'album', 'artist')),
  subject_id   uuid not null,
  created_at   timestamptz not null default now(),
  primary key (user_id, subject_kind, subject_id)
);
create index stars_subject_idx on stars (subject_kind, subject_id);

create table playlists (
  id         uuid primary key default gen_random_uuid(),
  user_id    uuid not null references users (id) on delete cascade,
  name       text not null,
  comment    text,
  public     boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index playlists_user_idx on playlists (user_id);

create table playlist_items (
  playlist_id uuid not null references playlists (id) on delete cascade,
  user_id     uuid not null references users (id) on delete cascade,
  position    integer not null check (position >= 0),
  track_id    uuid not null references tracks (id),
  added_at    timestamptz not null default now(),
  primary key (playlist_id, position)
);

create table api_keys (
  id           uuid primary key default gen_random_uuid(),
  user_id      uuid not null references users (id) on delete cascade,
  name         text not null,
  description  text not null default '',
  key_hash     text not null unique,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  last_used_at timestamptz
);
create index api_keys_user_idx on api_keys (user_id, created_at);

create table access_tokens (
  id           uuid primary key default gen_random_uuid(),
  user_id      uuid not null references users (id) on delete cascade,
  name         text not null,
  token_hash   text not null,
  last_four    text not null,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz
);
create index access_tokens_user_idx on access_tokens (user_id, created_at);

create table queue_items (
  user_id  uuid not null references users (id) on delete cascade,
  position integer not null check (position >= 0),
  track_id uuid not null references tracks (id),
  added_at timestamptz not null default now(),
  primary key (user_id, position)
);

-- Credentials for third-party providers must be usable, so they are encrypted, not hashed.
create table provider_accounts (
  user_id                 uuid not null references users (id) on delete cascade,
  provider                text not null,
  account_id              text,
  access_token_encrypted  text,
  refresh_token_encrypted text,
  expires_at              timestamptz,
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now(),
  primary key (user_id, provider)
);

create table filehost_directories (
  id         uuid primary key default gen_random_uuid(),
  user_id    uuid not null references users (id) on delete cascade,
  provider   text not null,
  name       text not null,
  path       text not null,
  file_id    text,
  parent_id  uuid references filehost_directories (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, provider, path)
);

create table filehost_files (
  id              uuid primary key default gen_random_uuid(),
  user_id         uuid not null references users (id) on delete cascade,
  provider        text not null,
  directory_id    uuid references filehost_directories (id) on delete cascade,
  name            text not null,
  path_lower      text not null,
  path_display    text not null,
  file_id         text,
  track_id        uuid references tracks (id),
  client_modified timestamptz,
  server_modified timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  unique (user_id, provider, path_lower)
);
