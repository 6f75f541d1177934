import { sql } from 'kysely';
import type { Database } from './database.ts';
import { asHeavyWork } from './pglite-pool.ts';

/** How long an answer may be reused while nothing was written: bounds how far a rolling window ("last 7 days, ending now") may lag. */
const FRESH_MS = 10_000;
/** Answers kept per database; a Wrapped is a few KB. */
const MAX_ENTRIES = 256;

interface Reads {
  answers: Map<string, { value: unknown; expires: number }>;
  inFlight: Map<string, Promise<unknown>>;
}

const readsByDatabase = new WeakMap<Database, Reads>();

function readsOf(db: Database): Reads {
  let reads = readsByDatabase.get(db);
  if (!reads) {
    reads = { answers: new Map(), inFlight: new Map() };
    readsByDatabase.set(db, reads);
  }
  return reads;
}

/**
 * The database's WAL insert position: it moves with every write, by this or
 * any other process, so an answer computed at an unchanged position is still
 * exact. Null where it cannot be read (a standby), and nothing is reused there.
 */
async function walPosition(db: Database): Promise<string | null> {
  try {
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(db);
    return rows[0]!.lsn;
  } catch {
    return null;
  }
}

function remember(reads: Reads, id: string, value: unknown): void {
  reads.answers.delete(id);
  reads.answers.set(id, { value, expires: Date.now() + FRESH_MS });
  // Maps iterate in insertion order: the first key is the least recently stored.
  if (reads.answers.size > MAX_ENTRIES) reads.answers.delete(reads.answers.keys().next().value!);
}

/**
 * A heavy, public read (a Wrapped, a chart) named by `key`, its parameters.
 * Computing one occupies the embedded database for up to a hundred milliseconds
 * or so even from the rollups (a 1M-play year's Wrapped on PGlite), so anonymous
 * callers must not be able to make it compute the same thing over
 * and over: concurrent identical requests share one computation, and an answer
 * is reused for a few seconds while nothing has been written since it was
 * computed (its WAL position is part of the key), so it is exactly what a new
 * computation would return, up to a rolling window's moving end. The work runs
 * as heavy work, behind interactive statements.
 */
export async function heavyRead<T>(db: Database, key: string, compute: () => Promise<T>): Promise<T> {
  const position = await walPosition(db);
  if (position === null) return asHeavyWork(compute);
  const reads = readsOf(db);
  const id = `${position} ${key}`;
  const answer = reads.answers.get(id);
  if (answer && answer.expires > Date.now()) return answer.value as T;
  let flight = reads.inFlight.get(id) as Promise<T> | undefined;
  if (!flight) {
    flight = asHeavyWork(compute).finally(() => reads.inFlight.delete(id));
    reads.inFlight.set(id, flight);
    flight.then(
      (value) => remember(reads, id, value),
      () => {},
    );
  }
  return flight;
}
