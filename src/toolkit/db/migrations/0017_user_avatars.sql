-- Avatars are fetched once, when set, and served by Earshot at /avatars/<user id>: a viewer's browser
-- then never loads a picture from a host the avatar's owner chose (which would learn every viewer's
-- address). `source_url` is what the owner gave; `data` is the picture, checked to be an image.
create table user_avatars (
  user_id    uuid primary key references users (id) on delete cascade,
  source_url text not null,
  data       bytea not null,
  updated_at timestamptz not null default now()
);
