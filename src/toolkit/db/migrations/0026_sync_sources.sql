-- Syncing in: each user's sources (a ListenBrainz user, a Last.fm user) whose plays Earshot pulls,
-- the whole history first, then new plays on a schedule (core/sync). One row per source holds the
-- cursor of the pass in progress and the lease of the process running it, so a pass killed at any
-- point resumes after its last committed batch, in whichever process takes the source next.

create table sync_sources (
  user_id             uuid not null references users (id) on delete cascade,
  id                  uuid not null default gen_random_uuid(),
  kind                text not null check (kind in ('listenbrainz', 'lastfm')),
  -- The ListenBrainz API root; null for Last.fm, whose endpoint is the server's (LASTFM_RELAY_API_URL).
  base_url            text,
  username            text not null,
  paused              boolean not null default false,
  -- A pass pulls the plays listened in [pass_from, pass_to): pass_from null is the beginning of the
  -- history, pass_to is fixed when the pass starts, so plays arriving meanwhile do not shift it.
  -- pass_to null: no pass in progress.
  pass_from           timestamptz,
  pass_to             timestamptz,
  -- Where the pass goes on: ListenBrainz's next max_ts (walking back), Last.fm's next page.
  pass_before         timestamptz,
  pass_page           integer,
  -- What the service said the pass holds, when it says (ListenBrainz's listen count, Last.fm's total).
  pass_expected       integer,
  pass_fetched        integer not null default 0,
  -- The upper bound of the last finished pass: the next one starts there (less a look-back).
  synced_until        timestamptz,
  -- When the first pass, the whole history, finished.
  history_done_at     timestamptz,
  fetched             integer not null default 0,
  stored              integer not null default 0,
  duplicate           integer not null default 0,
  ignored             integer not null default 0,
  next_run_at         timestamptz not null default now(),
  -- A runner owns the source until lease_until; its token fences a runner whose lease ran out.
  lease_until         timestamptz,
  lease_token         uuid,
  failures            integer not null default 0,
  last_run_at         timestamptz,
  last_success_at     timestamptz,
  last_error          text,
  last_error_at       timestamptz,
  created_at          timestamptz not null default now(),
  primary key (user_id, id)
);
-- One source per account at a service: the same user twice would only pull the same plays twice.
create unique index sync_sources_once on sync_sources (user_id, kind, coalesce(base_url, ''), lower(username));
-- What runners look for: sources that are due.
create index sync_sources_due_idx on sync_sources (next_run_at) where not paused;
