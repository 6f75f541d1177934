-- Artist pictures fetched from Deezer (catalog/enrich/artist-images.ts), served at
-- /artist-images/<artist id> so pages never hot-link; they go with their artist, as covers go
-- with their album.
create table artist_images (
  artist_id    uuid primary key references artists (id) on delete cascade,
  content_type text not null,
  data         bytea not null,
  deezer_id    text not null,
  created_at   timestamptz not null default now()
);
