-- Connected third-party accounts (cloud file hosts, the streaming service): the OAuth grant of
-- 0001's provider_accounts gains what a user sees of it and what the background jobs need.
alter table provider_accounts
  -- The provider's name for the account (an e-mail, a display name), shown in getConnections.
  add column account_name    text,
  add column scope           text,
  -- 'broken' once the provider refused the grant (revoked, expired for good): the user reconnects.
  add column status          text not null default 'connected' check (status in ('connected', 'broken')),
  add column status_reason   text,
  -- The streaming service's recently-played position (the provider's own `after` cursor), so a
  -- poller restarted anywhere goes on where the last one stopped.
  add column poll_cursor     text,
  -- One poller per account across every process on the database holds this lease while it polls.
  add column poll_lease_until timestamptz,
  add column last_polled_at  timestamptz,
  add column last_poll_error text;
alter table provider_accounts
  add constraint provider_accounts_provider check (provider in ('filehostA', 'filehostB', 'musicstream'));

-- A file host's change cursor: the next sync asks only for what changed after it.
alter table library_sources add column sync_cursor text;
-- The provider's own id of a file host source's root folder.
alter table library_sources add column root_file_id text;

-- An OAuth authorization in flight: the `state` sent to the provider names this row, so a
-- callback is accepted once (the row is deleted when used), only before it expires, and only for
-- the user who started it. The PKCE verifier never leaves the server.
create table oauth_states (
  nonce                 text primary key,
  user_id               uuid not null references users (id) on delete cascade,
  provider              text not null,
  code_verifier_sealed  text,
  -- The file host folder to mirror, chosen when connecting.
  folder                text,
  expires_at            timestamptz not null,
  created_at            timestamptz not null default now()
);
create index oauth_states_user_idx on oauth_states (user_id);
