import type { Database } from '../../toolkit/db/index.ts';
import { pendingMigrations } from '../../toolkit/db/migrate.ts';
import { DATABASE_DEADLINE_MS, withinDeadline } from './deadline.ts';

/** Whether this process can serve: its database answers and has every migration the code ships. */
export type Readiness = { ready: true } | { ready: false; problem: string; cause?: unknown };

export async function readiness(db: Database): Promise<Readiness> {
  let pending: string[];
  try {
    pending = await withinDeadline(pendingMigrations(db), DATABASE_DEADLINE_MS, 'the database');
  } catch (cause) {
    // The driver's words stay in the log: they may name internal hosts, and /ready is public.
    return { ready: false, problem: 'the database is unreachable', cause };
  }
  if (pending.length === 0) return { ready: true };
  const count = pending.length === 1 ? '1 migration is' : `${pending.length} migrations are`;
  return { ready: false, problem: `${count} pending (${pending.join(', ')}): restart the server to apply them` };
}
