import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

/**
 * No JIT for a heavy statistics read: its statements are rollup reads, where compiling costs up to
 * hundreds of milliseconds and never pays back (measured on Wrapped before the rollups; the 30-day
 * chart and clock, once the hourly rollup had been analyzed, 300 ms of compiling for 5 ms of rows).
 */
export const NO_JIT = { jit: 'off' } as const;

/**
 * Sets `settings` for the rest of the transaction `tx` only (`set_config(name, value, true)`, as SET
 * LOCAL). Never per session: behind a pooler in transaction mode each transaction may run on another
 * server connection, and a session's setting would stay behind on one for whoever gets it next.
 */
async function setForTransaction(tx: Transaction<DB>, settings: Readonly<Record<string, string>>): Promise<void> {
  await sql`select ${settingsFor(settings)}`.execute(tx);
}

/** setForTransaction's calls as a select list, for a statement that reads something as well (one round trip, not two). */
export const settingsFor = (settings: Readonly<Record<string, string>>): RawBuilder<unknown> =>
  sql.join(Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`));

/** Runs `work` in a transaction of its own with `settings` set for it first, so its statements are planned under them. */
export function withSettings<T>(db: Kysely<DB>, settings: Readonly<Record<string, string>>, work: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await setForTransaction(tx, settings);
    return work(tx);
  });
}
