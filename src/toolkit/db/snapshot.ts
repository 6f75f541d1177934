import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * The database's current snapshot, as text (`xmin:xmax:xip,…`, PostgreSQL's pg_snapshot). Two
 * readings are equal only if no transaction committed between them: a commit of a transaction
 * below the first reading's xmax takes it out of the in-progress list, and one at or above it
 * raises xmax (one past the highest completed transaction). Equal readings therefore see the same
 * committed data, on any connection, any process, behind any pooler, since transaction ids are
 * the whole cluster's. The converse does not hold (an abort, or a write to another database of
 * the cluster, changes the reading too), which only costs a reader a recomputation.
 */
export async function currentSnapshot(db: Database): Promise<string> {
  const { rows } = await sql<{ snapshot: string }>`select pg_current_snapshot()::text as snapshot`.execute(db);
  return rows[0]!.snapshot;
}
