-- Search finds names with case, accents and punctuation folded away ("bjork" finds Björk, "sigur
-- ros" Sigur Rós) by looking for the folded query inside the match keys the catalog already keeps
-- (catalog/normalize.ts). Trigram indexes on the keys keep that substring match an index scan, as
-- the ones on the names do for the plain match, rather than a read of every row.
create index artists_name_key_trgm_idx on artists using gin (name_key public.gin_trgm_ops);
create index albums_title_key_trgm_idx on albums using gin (title_key public.gin_trgm_ops);
create index tracks_title_key_trgm_idx on tracks using gin (title_key public.gin_trgm_ops);
