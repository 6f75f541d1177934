-- Faster Subsonic reads (issue 26), measured against supysonic in bench/subsonic-peer.ts.
--
-- Validators stored with covers, so serving one never hashes its bytes and a client's
-- If-None-Match is answered (304) without reading them (issue 26).
--
-- Kept pictures: the database computes the digest once, when the bytes are written (the same
-- form as adapters/http/file-headers.ts pictureEtag: a quoted, 27-character base64url SHA-256).
alter table album_covers add column etag text not null
  generated always as ('"' || left(translate(encode(sha256(data), 'base64'), '+/', '-_'), 27) || '"') stored;
alter table artist_images add column etag text not null
  generated always as ('"' || left(translate(encode(sha256(data), 'base64'), '+/', '-_'), 27) || '"') stored;
alter table user_avatars add column etag text not null
  generated always as ('"' || left(translate(encode(sha256(data), 'base64'), '+/', '-_'), 27) || '"') stored;

-- Library covers live on disk: the digest of the picture a file's `cover` names, stored the first
-- time it is served; the scan clears it whenever the file or its cover changes.
alter table library_files add column cover_etag text;

-- Song search (Subsonic search3, catalog search) matches the title, its key, the artist and the
-- album credit: with the album credit indexed too, every branch of that OR is an index lookup
-- (a bitmap OR) instead of pattern-matching every track.
create index tracks_album_trgm_idx on tracks using gin (album public.gin_trgm_ops) with (fastupdate = off);

-- GIN's fast update parks new entries in a pending list that every search reads through until
-- vacuum folds it in; the embedded database (PGlite) runs no autovacuum, so after a scan each
-- search read the whole list. Entries now go straight into the trigram indexes.
alter index artists_name_trgm_idx set (fastupdate = off);
alter index albums_title_trgm_idx set (fastupdate = off);
alter index tracks_title_trgm_idx set (fastupdate = off);
alter index tracks_artist_trgm_idx set (fastupdate = off);
alter index artists_name_key_trgm_idx set (fastupdate = off);
alter index albums_title_key_trgm_idx set (fastupdate = off);
alter index tracks_title_key_trgm_idx set (fastupdate = off);
