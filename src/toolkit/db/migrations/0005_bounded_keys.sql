-- Match keys are bounded so every name within the submission limits can be indexed: PostgreSQL
-- refuses btree entries over ~2704 bytes, which a long name of 3-byte characters exceeds. A key
-- longer than 200 code points becomes its first 200 code points, '#' and the hex SHA-256 of its
-- UTF-8 bytes: the formula of boundedKey in src/catalog/normalize.ts (left() and length() count
-- code points, as Array.from does in JavaScript). Runs once, over keys the unbounded code wrote.
update artists set name_key = left(name_key, 200) || '#' || encode(sha256(convert_to(name_key, 'UTF8')), 'hex')
 where length(name_key) > 200;
update albums set title_key = left(title_key, 200) || '#' || encode(sha256(convert_to(title_key, 'UTF8')), 'hex')
 where length(title_key) > 200;
update tracks set title_key = left(title_key, 200) || '#' || encode(sha256(convert_to(title_key, 'UTF8')), 'hex')
 where length(title_key) > 200;

-- Catalog listings show a song only when it was played or is in a library file (a now-playing
-- report alone creates a track too); this index makes the library half of that test a probe.
create index if not exists filehost_files_track_idx on filehost_files (track_id) where track_id is not null;
