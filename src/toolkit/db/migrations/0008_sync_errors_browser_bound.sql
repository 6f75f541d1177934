-- Why a source's last scan or file host sync failed (null once one succeeds), so a sync that fails
-- in the background is visible to its user in app.svc.provider.getConnections.
alter table library_sources add column last_scan_error text;

-- An authorization started by a browser redirect (GET /providers/<name>/connect) is finished only
-- by the browser holding its cookie, so nobody can hand a victim a consent link that would
-- connect the victim's provider account to another Earshot user.
alter table oauth_states add column browser_bound boolean not null default false;
