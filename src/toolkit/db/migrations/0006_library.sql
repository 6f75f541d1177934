-- The music library: every place audio files come from is a source (the server-wide local music
-- folder, later each user's cloud file hosts), and every source is one tree of directories and
-- files. The per-user filehost tables of 0001 become the source-keyed library tables; their rows
-- move under one source per (user, provider).

create table library_sources (
  -- An integer because Subsonic clients type music folder ids as numbers.
  id               integer generated always as identity primary key,
  kind             text not null check (kind in ('local', 'filehostA', 'filehostB')),
  -- null for a server-wide source (the local folder, shared by all users as in Navidrome).
  user_id          uuid references users (id) on delete cascade,
  name             text not null,
  -- Absolute directory of a local source; the provider's root path for a file host.
  root             text not null,
  -- A scan holds the lease until it ends or the lease runs out, so one process of several on one
  -- database scans a source at a time.
  scan_lease_until timestamptz,
  last_scan_at     timestamptz,
  last_scan_report jsonb,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  constraint library_sources_once unique nulls not distinct (kind, user_id, root)
);

create table library_directories (
  id         uuid primary key default gen_random_uuid(),
  source_id  integer not null references library_sources (id) on delete cascade,
  -- The source's owner (null for a server-wide source), kept here so per-user rows shard with their user.
  user_id    uuid references users (id) on delete cascade,
  -- null only for the source's root directory.
  parent_id  uuid references library_directories (id) on delete cascade,
  name       text not null,
  -- Relative to the source root, '/'-separated, '' for the root itself.
  path       text not null,
  -- The provider's own id of the folder (file hosts); null for local folders.
  file_id    text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint library_directories_path_once unique (source_id, path)
);
create index library_directories_parent_idx on library_directories (parent_id, name);

create table library_files (
  id              uuid primary key default gen_random_uuid(),
  source_id       integer not null references library_sources (id) on delete cascade,
  user_id         uuid references users (id) on delete cascade,
  directory_id    uuid not null references library_directories (id) on delete cascade,
  name            text not null,
  -- Relative to the source root, '/'-separated, as the file system or provider spells it.
  path            text not null,
  path_lower      text generated always as (lower(path)) stored,
  file_id         text,
  -- The catalog song this file holds; null while it is not (yet) matched.
  track_id        uuid references tracks (id),
  -- What an incremental scan compares to decide whether to read the tags again.
  size            bigint not null,
  modified_at     timestamptz not null,
  content_type    text not null,
  suffix          text not null,
  bit_rate        integer,
  duration_ms     integer,
  year            integer,
  -- Where the cover picture is: 'embedded' in this file, a folder image's path relative to the
  -- source root, or null for none.
  cover           text,
  client_modified timestamptz,
  server_modified timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  constraint library_files_path_once unique (source_id, path)
);
create index library_files_directory_idx on library_files (directory_id, name);
create index library_files_track_idx on library_files (track_id) where track_id is not null;

-- Rows of the old tables (written by nothing so far, but kept all the same) move across.
insert into library_sources (kind, user_id, name, root)
select distinct provider, user_id, provider, '/' from filehost_directories
 where provider in ('filehostA', 'filehostB')
union
select distinct provider, user_id, provider, '/' from filehost_files
 where provider in ('filehostA', 'filehostB');
insert into library_directories (id, source_id, user_id, parent_id, name, path, file_id, created_at, updated_at)
select d.id, s.id, d.user_id, d.parent_id, d.name, d.path, d.file_id, d.created_at, d.updated_at
  from filehost_directories d join library_sources s on s.kind = d.provider and s.user_id = d.user_id;
insert into library_files (id, source_id, user_id, directory_id, name, path, file_id, track_id, size, modified_at,
                           content_type, suffix, client_modified, server_modified, created_at, updated_at)
select f.id, s.id, f.user_id, f.directory_id, f.name, f.path_display, f.file_id, f.track_id, 0,
       coalesce(f.server_modified, f.updated_at), 'application/octet-stream', '', f.client_modified,
       f.server_modified, f.created_at, f.updated_at
  from filehost_files f join library_sources s on s.kind = f.provider and s.user_id = f.user_id
 where f.directory_id is not null;
drop table filehost_files;
drop table filehost_directories;

-- File tags fill song fields no scrobble path knows; the year lives on the album.
-- (tracks already has composer, label, bpm, key, lyrics and album_art.)

-- Subsonic token authentication (t = md5(key + s)) needs the API key itself, so new keys also keep
-- it sealed with AES-256-GCM, bound to the key's id (auth/encryption.ts). Keys made before this
-- stay usable over Subsonic with p= or apiKey=, which compare hashes.
alter table api_keys add column subsonic_key text;

-- One play queue per user, shared by Subsonic's savePlayQueue and the XRPC player operations:
-- the items are queue_items; this row is where playback stands in them.
create table play_queues (
  user_id      uuid primary key references users (id) on delete cascade,
  -- The track playing now, as a position in queue_items (null: none chosen).
  current      integer check (current is null or current >= 0),
  -- Milliseconds into the current track.
  position_ms  bigint not null default 0 check (position_ms >= 0),
  changed_by   text not null default '',
  changed_at   timestamptz not null default now()
);
