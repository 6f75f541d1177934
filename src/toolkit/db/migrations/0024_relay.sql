-- Relaying plays out: each user's targets (another scrobbling service: ListenBrainz or a server
-- speaking it, Last.fm, Maloja, another Earshot) and a durable outbox of plays to deliver there,
-- written in the same transaction as the play (core/relay).

-- The target a play came from when a sync brought it in; a play is never relayed back to its origin.
-- No foreign key: the target may be removed while its plays stay.
alter table scrobbles add column origin_target uuid;

create table relay_targets (
  user_id         uuid not null references users (id) on delete cascade,
  id              uuid not null default gen_random_uuid(),
  kind            text not null check (kind in ('listenbrainz', 'lastfm', 'maloja', 'earshot')),
  name            text not null,
  -- The target's API base; null for Last.fm, whose endpoint is the server's (LASTFM_RELAY_API_URL).
  base_url        text,
  -- The user's credential there (ListenBrainz token, Maloja key, Last.fm session key), sealed with
  -- the server's encryption key under the row's id; null while a Last.fm account is not linked yet.
  secret_sealed   text,
  -- Last.fm's name for the linked account.
  account_name    text,
  -- Plays from imports are relayed only when asked, and only those inside the window.
  relay_imports   boolean not null default false,
  imports_from    timestamptz,
  imports_until   timestamptz,
  -- The target said to wait (down, or Retry-After): no batch is sent to it before this.
  hold_until      timestamptz,
  last_success_at timestamptz,
  last_error      text,
  last_error_at   timestamptz,
  created_at      timestamptz not null default now(),
  primary key (user_id, id)
);

create table relay_outbox (
  user_id         uuid not null,
  id              bigint generated always as identity,
  target_id       uuid not null,
  scrobble_id     uuid not null,
  -- What is sent: the play as the catalog names it when stored (artist, title, album, durationMs,
  -- mbid, listenedAt), so a later catalog edit or the play's deletion does not change a delivery.
  payload         jsonb not null,
  -- queued → delivered; refused (the target's error) or dead (out of tries) are dead letters,
  -- queued again by the user's retry.
  state           text not null default 'queued' check (state in ('queued', 'delivered', 'refused', 'dead')),
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- A sender owns a claimed row until lease_until; its token fences a sender whose lease ran out.
  lease_until     timestamptz,
  lease_token     uuid,
  last_error      text,
  delivered_at    timestamptz,
  created_at      timestamptz not null default now(),
  primary key (user_id, id),
  constraint relay_outbox_once unique (user_id, target_id, scrobble_id),
  foreign key (user_id, target_id) references relay_targets (user_id, id) on delete cascade
);
-- What senders look for: queued rows that are due.
create index relay_outbox_due_idx on relay_outbox (next_attempt_at) where state = 'queued';
-- A target's queue and dead letters, for its status.
create index relay_outbox_target_idx on relay_outbox (user_id, target_id, state);
