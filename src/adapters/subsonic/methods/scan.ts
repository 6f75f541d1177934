import { sql } from 'kysely';
import { scanLibrary } from '../../../core/library/scan/index.ts';
import { visibleSource } from '../../../core/library/views.ts';
import type { SubsonicRequest } from '../method.ts';
import { defineSubsonicMethod } from '../method.ts';

/**
 * Subsonic's scanStatus: whether a scan of a folder the user sees runs now (its lease is held),
 * how many audio files those folders hold, and when the last scan ended.
 */
async function scanStatus({ ctx, viewer }: Pick<SubsonicRequest, 'ctx' | 'viewer'>) {
  const row = await ctx.db
    .selectFrom('library_sources')
    .select([
      sql<boolean>`coalesce(bool_or(scan_lease_until > now()), false)`.as('scanning'),
      sql<Date | null>`max(last_scan_at)`.as('last_scan'),
      sql<number>`(select count(*)::int from library_files f join library_sources s on s.id = f.source_id
        where s.user_id is null or s.user_id = ${viewer.userId})`.as('count'),
    ])
    .where((eb) => visibleSource(eb, viewer.userId))
    .executeTakeFirstOrThrow();
  return { scanStatus: { scanning: row.scanning, count: row.count, ...(row.last_scan && { lastScan: new Date(row.last_scan).toISOString() }) } };
}

export const getScanStatus = defineSubsonicMethod('getScanStatus', scanStatus);

/**
 * "Refresh library" in a player: starts an incremental scan of the server-wide folder and answers
 * with the status as soon as it runs. Scans are incremental and one at a time (a lease), so a user asking
 * again costs little; without a configured folder there is nothing to scan, and the status says so.
 */
export const startScan = defineSubsonicMethod('startScan', async (request) => {
  if (request.ctx.config.musicDir) {
    // Answered once the scan holds its lease (or failed to start), so a getScanStatus right after reads "scanning".
    await new Promise<void>((leased) => {
      scanLibrary(request.ctx, { onLeased: leased })
        .catch((error: unknown) => console.error(`Library scan failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(leased);
    });
  }
  return scanStatus(request);
});
