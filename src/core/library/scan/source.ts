/**
 * The local folder's library_sources row and its scan lease: one scan per source at a time,
 * across every process on the database. A scan takes the lease by a conditional update, keeps
 * it fresh while it works, and gives it back with its report.
 */
import { basename } from 'node:path';
import type { Database } from '../../../toolkit/db/index.ts';
import type { ScanReport } from './report.ts';

/** The server-wide source of a local folder (created on first use), by its absolute path. */
export async function ensureLocalSource(db: Database, root: string): Promise<number> {
  await db
    .insertInto('library_sources')
    .values({ kind: 'local', user_id: null, name: basename(root) || root, root })
    .onConflict((oc) => oc.constraint('library_sources_once').doNothing())
    .execute();
  const id = await findLocalSource(db, root);
  if (id === undefined) throw new Error(`the local source ${root} was neither created nor found`);
  return id;
}

/** The server-wide source of a local folder, if a scan has made it. */
export async function findLocalSource(db: Database, root: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('library_sources')
    .select('id')
    .where('kind', '=', 'local')
    .where('user_id', 'is', null)
    .where('root', '=', root)
    .executeTakeFirst();
  return row?.id;
}

/** How long a lease lasts unless refreshed: a crashed scan blocks others at most this long. */
const LEASE_MS = 120_000;
/** How often a running scan pushes its lease forward. */
const REFRESH_MS = 30_000;

export class LeaseLost extends Error {
  constructor() {
    super('another scan took over this folder (the lease ran out); this scan stopped');
  }
}

/**
 * A held lease. Its value is the exact expiry this process wrote, so refreshing or releasing
 * touches the row only while that value is still there: a scan that lost its lease (it stalled
 * past expiry and another scan took over) can no longer write over the new holder's.
 */
export class ScanLease {
  private refreshing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  lost = false;

  private constructor(
    private readonly db: Database,
    readonly sourceId: number,
    private until: Date,
  ) {
    this.timer = setInterval(() => {
      this.refreshing = this.refreshing
        .then(() => this.refresh())
        .catch(() => {
          // A failed refresh is retried at the next tick; the lease still has time left.
        });
    }, REFRESH_MS);
    this.timer.unref();
  }

  /** The lease, or null when another scan holds it. */
  static async take(db: Database, sourceId: number, now = new Date()): Promise<ScanLease | null> {
    const until = new Date(now.getTime() + LEASE_MS);
    const taken = await db
      .updateTable('library_sources')
      .set({ scan_lease_until: until })
      .where('id', '=', sourceId)
      .where((eb) => eb.or([eb('scan_lease_until', 'is', null), eb('scan_lease_until', '<', now)]))
      .returning('id')
      .executeTakeFirst();
    return taken ? new ScanLease(db, sourceId, until) : null;
  }

  /** Throws LeaseLost when a refresh found the lease gone. */
  check(): void {
    if (this.lost) throw new LeaseLost();
  }

  private async refresh(): Promise<void> {
    if (this.lost) return;
    const until = new Date(Date.now() + LEASE_MS);
    const kept = await this.db
      .updateTable('library_sources')
      .set({ scan_lease_until: until })
      .where('id', '=', this.sourceId)
      .where('scan_lease_until', '=', this.until)
      .returning('id')
      .executeTakeFirst();
    if (kept) this.until = until;
    else this.lost = true;
  }

  /** Gives the lease back, recording the report when the scan finished, or why it failed. */
  async release(outcome?: ScanReport | { error: string }): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
    if (this.lost) return;
    await this.db
      .updateTable('library_sources')
      .set({
        scan_lease_until: null,
        updated_at: new Date(),
        ...(outcome && 'error' in outcome ? { last_scan_error: outcome.error } : {}),
        ...(outcome && !('error' in outcome) ? { last_scan_at: new Date(), last_scan_report: JSON.stringify(outcome), last_scan_error: null } : {}),
      })
      .where('id', '=', this.sourceId)
      .where('scan_lease_until', '=', this.until)
      .execute();
  }
}
