-- Sign-in sessions: each sign-in JWT names its row here (the JWT's jti), so signing out, changing
-- the password or deleting the account ends it at once, as deleting an access token's row does.
-- Checking a token is one primary-key lookup. Expired rows are removed when their user signs in.
create table sign_in_sessions (
  id           uuid primary key default gen_random_uuid(),
  user_id      uuid not null references users (id) on delete cascade,
  -- What the client said it was (its User-Agent), shown in the list of sessions; may be null.
  user_agent   text,
  created_at   timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  expires_at   timestamptz not null
);
create index sign_in_sessions_user_idx on sign_in_sessions (user_id, created_at);
