-- Metadata enrichment (catalog/enrich): what was looked up at MusicBrainz and the Cover Art
-- Archive, what they answered, and the covers fetched.

-- When each catalog entry was last looked up and how it went, so it is not asked about again
-- every run: a failure is retried after an hour, anything else after 30 days.
create table enrichment_attempts (
  kind     text not null check (kind in ('song', 'album', 'artist')),
  entry_id uuid not null,
  outcome  text not null check (outcome in ('enriched', 'unchanged', 'no-match', 'failed')),
  tried_at timestamptz not null default now(),
  primary key (kind, entry_id)
);

-- MusicBrainz's answers by request URL (null for its 404), for 30 days: songs of one artist or
-- release ask the same lookups.
create table enrichment_cache (
  url        text primary key,
  body       jsonb,
  fetched_at timestamptz not null default now()
);

-- Covers fetched from the Cover Art Archive, served at /covers/<album id> so pages never
-- hot-link; they go with their album.
create table album_covers (
  album_id     uuid primary key references albums (id) on delete cascade,
  content_type text not null,
  data         bytea not null,
  release_mbid text not null,
  created_at   timestamptz not null default now()
);

-- One row: which process is enriching, until when. MusicBrainz allows one request a second per
-- client, so one process at a time does it.
create table enrichment_lease (
  only_row boolean primary key default true check (only_row),
  holder   text,
  until    timestamptz
);
insert into enrichment_lease (only_row) values (true);
