-- Progress of history imports. A file is known by the SHA-256 of its bytes; records_consumed
-- advances in the same transaction as the scrobbles of each batch, so a re-run resumes exactly
-- where the last committed batch ended.
create table import_checkpoints (
  user_id          uuid not null references users (id) on delete cascade,
  fingerprint      text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
  format           text not null,
  records_consumed bigint not null default 0 check (records_consumed >= 0),
  stored           bigint not null default 0,
  duplicate        bigint not null default 0,
  ignored          bigint not null default 0,
  completed_at     timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  primary key (user_id, fingerprint)
);
