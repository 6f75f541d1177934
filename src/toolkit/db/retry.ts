import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';

/** serialization_failure and deadlock_detected: PostgreSQL aborted the transaction, and running it again may succeed. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/**
 * Thrown by a transaction that found it needs a lock it did not take up front
 * (its lock set was planned from data another transaction changed meanwhile):
 * running it again plans the lock set afresh.
 */
export class RetryableConflict extends Error {}

export function isRetryable(error: unknown): boolean {
  if (error instanceof RetryableConflict) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/** Attempts per transaction; enough for the rare conflict, bounded so a persistent one still surfaces. */
export const TRANSACTION_ATTEMPTS = 6;
/** The first retry waits up to this long; each further one doubles it ("full jitter" spreads rivals apart). */
const BASE_DELAY_MS = 10;

/**
 * Runs `work` in a transaction, and runs it again (up to TRANSACTION_ATTEMPTS times, after
 * a short random pause) when the database aborts it for a serialization failure
 * or deadlock, so clients never see those. `work` must touch nothing outside the
 * transaction, since a failed attempt leaves no trace only in the database.
 */
export async function inTransaction<T>(db: Database, work: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
      await sleep(Math.random() * BASE_DELAY_MS * 2 ** (attempt - 1));
    }
  }
}
