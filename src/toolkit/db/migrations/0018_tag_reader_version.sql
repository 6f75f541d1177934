-- Which version of the tag reader (core/library/tags.ts, TAG_READER_VERSION) read each file. A scan
-- reads a file again, once, when an older reader read it, although the file is unchanged: that is how
-- an improvement of the reader reaches a library scanned before it, with no full rescan to ask for.
-- Version 2 computes the duration from the stream when the headers give none (Ogg files past their
-- first pages), so only the files version 1 left without a duration need the second look.
alter table library_files add column tag_reader smallint not null default 1;
update library_files set tag_reader = 2 where duration_ms is not null;
-- Every writer says which reader read the file.
alter table library_files alter column tag_reader drop default;
