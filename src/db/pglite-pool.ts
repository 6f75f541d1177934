import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance as the pool Kysely's PostgreSQL driver expects.
 * PGlite is a single connection, so a client is handed out exclusively: a
 * transaction must never see another request's statements interleaved.
 */
export class PGlitePool implements PostgresPool {
  readonly options = {};
  #tail: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return {
      query: ((sqlText: string, parameters: readonly unknown[]) => this.#run(sqlText, parameters)) as PostgresPoolClient['query'],
      release,
    };
  }

  async end(): Promise<void> {
    await this.#tail;
    await this.pglite.close();
  }

  async #run<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    if (parameters.length > 0) {
      const result = await this.pglite.query<R>(sqlText, parameters as unknown[]);
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
