-- What the streaming poller saw playing on the account (core/musicstream/observed-plays.ts): the
-- current play and recent ones waiting for their listing, each with the played-time clock of its
-- readings. On the account row, so whichever server process holds the poll lease carries it on.
alter table provider_accounts add column poll_observed jsonb not null default '[]';
