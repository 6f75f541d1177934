import { sql } from 'kysely';
import type { Database } from './database.ts';

/** Readings gathering callers, per database: each is sent once the turn its callers arrived in ends. */
const gathering = new WeakMap<Database, Promise<string>>();

/**
 * The database's current snapshot, as text (`xmin:xmax:xip,…`, PostgreSQL's pg_snapshot). Two
 * readings are equal only if no transaction committed between them: a commit of a transaction
 * below the first reading's xmax takes it out of the in-progress list, and one at or above it
 * raises xmax (one past the highest completed transaction). Equal readings therefore see the same
 * committed data, on any connection, any process, behind any pooler, since transaction ids are
 * the whole cluster's. The converse does not hold (an abort, or a write to another database of
 * the cluster, changes the reading too), which only costs a reader a recomputation.
 *
 * Callers in the same turn of the event loop share one reading, sent after the turn, so after every
 * one of them asked: whatever had committed when any of them asked is in it. A caller never joins
 * a reading already sent (it could predate a commit that caller has seen). Under load, kept answers
 * then cost one statement per turn rather than one per request; on the embedded database, whose
 * one connection runs statements in turn, that is the difference that counts.
 */
export function currentSnapshot(db: Database): Promise<string> {
  let reading = gathering.get(db);
  if (!reading) {
    reading = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      gathering.delete(db);
      return readSnapshot(db);
    });
    gathering.set(db, reading);
  }
  return reading;
}

async function readSnapshot(db: Database): Promise<string> {
  const { rows } = await sql<{ snapshot: string }>`select pg_current_snapshot()::text as snapshot`.execute(db);
  return rows[0]!.snapshot;
}
