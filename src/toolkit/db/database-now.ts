import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * The database's time now (the transaction's start, inside one), in ms since the epoch: the one
 * clock every server process shares, for measures taken across processes.
 */
export async function databaseNowMs(db: Database): Promise<number> {
  const { rows } = await sql<{ now_ms: number }>`select (extract(epoch from now()) * 1000)::float8 as now_ms`.execute(db);
  return rows[0]!.now_ms;
}
