import { isoDateTime } from '../../toolkit/schemas.ts';
import type { ProviderName } from '../../toolkit/config.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { reconnectHint } from './connections.ts';

/** The user's connections to providers as they may see them (never a token), with their file host mirror's and streaming poll's state. */
export async function connectionViews(db: Database, userId: string) {
  const rows = await db
    .selectFrom('provider_accounts as a')
    .leftJoin('library_sources as s', (join) => join.onRef('s.user_id', '=', 'a.user_id').onRef('s.kind', '=', 'a.provider'))
    .select([
      'a.provider',
      'a.status',
      'a.status_reason',
      'a.account_id',
      'a.account_name',
      'a.scope',
      'a.created_at',
      'a.updated_at',
      'a.last_polled_at',
      'a.last_poll_error',
      's.root',
      's.last_scan_at',
      's.last_scan_error',
    ])
    .where('a.user_id', '=', userId)
    .orderBy('a.provider')
    .execute();
  const iso = (date: Date | null) => (date === null ? null : isoDateTime(date));
  return rows.map((row) => ({
    provider: row.provider as ProviderName,
    status: row.status,
    statusReason: row.status === 'broken' ? `${row.status_reason ?? 'refused by the provider'}; ${reconnectHint(row.provider as ProviderName)}` : null,
    accountId: row.account_id,
    accountName: row.account_name,
    scope: row.scope,
    connectedAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
    folder: row.root,
    lastSyncAt: iso(row.last_scan_at),
    lastSyncError: row.last_scan_error,
    lastPolledAt: iso(row.last_polled_at),
    lastPollError: row.last_poll_error,
  }));
}
