-- All-time totals ahead of the fold (src/core/stats/rollups/totals-ahead.ts). After a bulk import
-- the queue holds ~100k plays for one user, and every all-time read (a profile's counts, top lists,
-- catalog play counts) summed them per track until the fold, which folds ~1,000 a batch into every
-- rollup, had taken them all: tens of seconds. A cheaper step adds queued plays to the all-time
-- totals alone, thousands a statement, and marks them `totalled`; the fold later counts them
-- everywhere else and leaves the totals be. All-time reads take only the rows not totalled, and
-- skip the queue when a user has none: `totalled` beside `queued` counts the user's totalled rows,
-- kept by the step and counted down by the fold, both in their own transactions, so the marks and
-- the queue agree in every snapshot. Nothing is written per play by writers: the column's default
-- is false, and the triggers that queue plays stay as they are.
alter table stats_queue add column totalled boolean not null default false;
alter table stats_queue_users add column totalled bigint not null default 0 check (totalled >= 0);
