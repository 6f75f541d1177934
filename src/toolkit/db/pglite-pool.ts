import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { PGliteStatements } from './pglite-statements.ts';

const heavyWork = new AsyncLocalStorage<true>();

/** A pool's connections and the clients waiting for one, the same on both backends. */
export interface PoolUsage {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * Runs `work` as heavy work (Wrapped, charts, imports): on the embedded
 * database its statements wait until no interactive statement does. Elsewhere
 * it changes nothing; a PostgreSQL server runs statements side by side.
 */
export function asHeavyWork<T>(work: () => Promise<T>): Promise<T> {
  return heavyWork.run(true, work);
}

/**
 * Interactive statements granted in a row while heavy work waits, before the
 * heavy work gets its turn: a steady stream of small reads delays a Wrapped,
 * but never starves it.
 */
const MAX_INTERACTIVE_STREAK = 16;

/**
 * Presents one PGlite instance as the pool Kysely's PostgreSQL driver expects.
 * PGlite is a single connection, so a client is handed out exclusively: a
 * transaction must never see another request's statements interleaved.
 *
 * PGlite also runs each statement to completion on the main thread, so a
 * first-come queue makes a getFeed wait for every Wrapped queued before it
 * (seconds, with a few clients). Waiters are therefore served interactive
 * first: an interactive statement waits for at most the one statement running.
 *
 * That only works if interactive requests get to join the queue. A statement
 * blocks the event loop, and its result, the release and the next connect all
 * run as microtasks, so heavy work taking one transaction after another (an
 * import batch matches its catalog in a few dozen) never lets Node read a
 * socket: requests that arrived meanwhile, and responses already written, sit
 * unread until the whole batch is done (measured: getFeed answered after
 * 1.2 s while its own statements had run in 8 ms). Heavy work is therefore
 * granted the connection only after a turn of the event loop, and the choice
 * is made again after it, with whatever interactive statements that turn queued.
 */
export class PGlitePool implements PostgresPool {
  readonly options = {};
  #busy = false;
  readonly #interactive: (() => void)[] = [];
  readonly #heavy: (() => void)[] = [];
  #interactiveStreak = 0;
  readonly #statements: PGliteStatements;

  constructor(private readonly pglite: PGlite) {
    this.#statements = new PGliteStatements(pglite);
  }

  /** The one connection, whether a client holds it, and the statements queued for it (metrics). */
  usage(): PoolUsage {
    return { total: 1, idle: this.#busy ? 0 : 1, waiting: this.#interactive.length + this.#heavy.length };
  }

  async connect(): Promise<PostgresPoolClient> {
    await this.#acquire(heavyWork.getStore() === true);
    let released = false;
    return {
      query: ((sqlText: string, parameters: readonly unknown[]) => this.#run(sqlText, parameters)) as PostgresPoolClient['query'],
      release: () => {
        if (released) return;
        released = true;
        this.#handOver();
      },
    };
  }

  async end(): Promise<void> {
    await this.#acquire(false);
    await this.pglite.close();
  }

  #acquire(heavy: boolean): Promise<void> {
    const granted = new Promise<void>((resolve) => (heavy ? this.#heavy : this.#interactive).push(resolve));
    if (!this.#busy) {
      this.#busy = true;
      this.#handOver();
    }
    return granted;
  }

  /**
   * Passes the connection to the next waiter, or marks it free. Before heavy
   * work gets it, the connection stays reserved for one turn of the event loop
   * (setImmediate runs after the poll phase reads sockets), and then the turn
   * is decided again: interactive statements queued meanwhile go first.
   */
  #handOver(afterPoll = false): void {
    const heavyTurn = this.#heavy.length > 0 && (this.#interactive.length === 0 || this.#interactiveStreak >= MAX_INTERACTIVE_STREAK);
    if (heavyTurn && !afterPoll) {
      setImmediate(() => this.#handOver(true));
      return;
    }
    if (heavyTurn) this.#interactiveStreak = 0;
    else if (this.#heavy.length > 0) this.#interactiveStreak++;
    const next = heavyTurn ? this.#heavy.shift() : this.#interactive.shift();
    if (next) next();
    else this.#busy = false;
  }

  async #run<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    if (parameters.length > 0) {
      const result = await this.#statements.query<R>(sqlText, parameters);
      return { command: commandOf(sqlText), rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
    }
    // Parameterless text may hold several statements (migrations); only the simple protocol accepts that.
    const results = await this.pglite.exec(sqlText);
    const last = results[results.length - 1];
    const rows = (last?.rows ?? []) as R[];
    return { command: commandOf(sqlText), rowCount: last?.affectedRows ?? rows.length, rows };
  }
}

function commandOf(sqlText: string): PostgresQueryResult<unknown>['command'] {
  const word = /^\s*(?:with\b[\s\S]*?\)\s*)?(\w+)/i.exec(sqlText)?.[1]?.toUpperCase();
  switch (word) {
    case 'INSERT':
    case 'UPDATE':
    case 'DELETE':
    case 'MERGE':
      return word;
    default:
      return 'SELECT';
  }
}
