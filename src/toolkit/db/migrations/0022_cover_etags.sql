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
