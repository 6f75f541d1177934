-- ListenBrainz's latest-import: per user and import service, the newest listen a client says it
-- has imported (unix seconds), so an importer resumes where it stopped. Only ever moves forward.
create table lb_latest_imports (
  user_id       uuid not null references users (id) on delete cascade,
  service       text not null,
  latest_import bigint not null,
  updated_at    timestamptz not null default now(),
  primary key (user_id, service)
);

-- ListenBrainz's "hate" feedback on a song. Love is a like (a `stars` row); a song is loved or
-- hated, never both, which the feedback writer keeps so. subject_id has no foreign key, as in stars.
create table song_dislikes (
  user_id    uuid not null references users (id) on delete cascade,
  track_id   uuid not null,
  created_at timestamptz not null default now(),
  primary key (user_id, track_id)
);
