-- Who may edit the shared catalog: admins. The first account created is one (auth/users.ts);
-- `earshot user promote` makes more.
alter table users add column admin boolean not null default false;
-- An existing server's first user becomes its admin, as a new server's first signup would.
update users set admin = true where id = (select id from users order by created_at, id limit 1);

-- Every change an admin makes to the catalog (merges, renames, fixed fields), with enough to undo
-- it exactly: `changes` holds the full rows (to_jsonb) the edit updated or deleted and the keys
-- of the rows it inserted; `touched` names every row it wrote ('table:key'), so an edit is undone
-- only when no later edit still in force wrote one of them.
create table catalog_edits (
  id         bigint generated always as identity primary key,
  -- The admin who made it; kept (as null) when their account is deleted.
  user_id    uuid references users (id) on delete set null,
  kind       text not null check (kind in ('mergeArtists', 'mergeAlbums', 'mergeSongs', 'updateArtist', 'updateAlbum', 'updateSong')),
  summary    text not null,
  changes    jsonb not null,
  touched    text[] not null,
  created_at timestamptz not null default now(),
  undone_at  timestamptz,
  undone_by  uuid references users (id) on delete set null
);
create index catalog_edits_touched_idx on catalog_edits using gin (touched);

-- What keeps resolving after an edit: a merged-away id (old_id) to the entry that absorbed it,
-- and an old match key (name_key, under artist_id for albums and songs) to the entry that now
-- carries it, so scrobbling the old spelling again finds the survivor instead of re-creating it.
create table catalog_aliases (
  id          uuid primary key default gen_random_uuid(),
  kind        text not null check (kind in ('song', 'album', 'artist')),
  old_id      uuid,
  survivor_id uuid not null,
  -- For album and song keys: the artist the key is matched under; null for artist keys.
  artist_id   uuid,
  name_key    text,
  edit_id     bigint not null references catalog_edits (id) on delete cascade,
  check (old_id is not null or name_key is not null)
);
create unique index catalog_aliases_old_id_idx on catalog_aliases (kind, old_id) where old_id is not null;
create index catalog_aliases_key_idx on catalog_aliases (kind, name_key, artist_id) where name_key is not null;
create index catalog_aliases_survivor_idx on catalog_aliases (kind, survivor_id);
create index catalog_aliases_artist_idx on catalog_aliases (artist_id) where artist_id is not null;
