-- Why a source's last scan or file host sync failed (null once one succeeds), so a sync that fails
-- in the background is visible to its user in app.svc.provider.getConnections.
alter table library_sources add column last_scan_error text;
