import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';

const { serialize } = protocol;

/**
 * Statements kept prepared; past this the least recently used is closed. Kysely writes one text
 * per shape of query (an `in` list of 3 ids and one of 4 are two texts), so the number of texts
 * is unbounded in principle but small in use.
 */
const MAX_STATEMENTS = 200;

/**
 * Statements with more parameters than this (batch inserts, long `in` lists) run unprepared: their
 * texts seldom repeat, parsing is a small part of their work, and each one kept would hold its
 * parse tree and plan in the database's memory (some 40 KiB a statement for a Subsonic call's).
 */
const MAX_PREPARED_PARAMS = 64;

/** Statements named across instances, which may share one database. */
let prepared = 0;

interface Statement {
  name: string;
  paramTypes: number[];
}

/**
 * Runs parameterised statements on PGlite as named prepared statements, one per SQL text.
 *
 * PGlite's own `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six calls into
 * postgres, parsing and analysing the text every time. Here a text is parsed once; each later
 * run is one call (Bind, Describe, Execute, Sync in a single message), measured at about a fifth
 * of `query`'s cost for a one-row primary-key read. Results are decoded by PGlite's own parser,
 * with its type parsers and serializers, so rows look exactly as `query` returns them.
 */
export class PGliteStatements {
  readonly #statements = new Map<string, Statement>();
  /** Statements to close, left over from a failed run; closed when no transaction is open. */
  readonly #stale: string[] = [];

  constructor(
    private readonly pglite: PGlite,
    private readonly maxStatements = MAX_STATEMENTS,
  ) {}

  /** Runs `sqlText` with `params`, as PGlite's `query` would (its lock, its errors, its rows). */
  query<R>(sqlText: string, params: readonly unknown[]): Promise<Results<R>> {
    if (params.length > MAX_PREPARED_PARAMS) return this.pglite.query<R>(sqlText, [...params]);
    return this.pglite.runExclusive(async () => {
      try {
        return await this.#run<R>(sqlText, params);
      } catch (error) {
        // A table changed under the statement since it was prepared; prepared afresh, it runs as an unprepared
        // one would. Inside a transaction the error has already aborted it, as it would have there too.
        if (!isResultTypeChange(error) || this.pglite.isInTransaction()) throw error;
        return await this.#run<R>(sqlText, params);
      }
    });
  }

  async #run<R>(sqlText: string, params: readonly unknown[]): Promise<Results<R>> {
    const statement = this.#touch(sqlText) ?? (await this.#prepare(sqlText, params));
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pglite.serializers[statement.paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    try {
      const message = concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
      const { messages } = await this.pglite.execProtocol(message);
      return parse.parseResults(messages, this.pglite.parsers)[0] as Results<R>;
    } catch (error) {
      // Most failures (a constraint) leave the statement sound, but preparing again is cheap and failures rare.
      this.#statements.delete(sqlText);
      this.#stale.push(statement.name);
      throw withQuery(error, sqlText, params);
    }
  }

  /** The prepared statement for `sqlText`, marked most recently used. */
  #touch(sqlText: string): Statement | undefined {
    const statement = this.#statements.get(sqlText);
    if (statement) {
      this.#statements.delete(sqlText);
      this.#statements.set(sqlText, statement);
    }
    return statement;
  }

  async #prepare(sqlText: string, params: readonly unknown[]): Promise<Statement> {
    const name = `earshot_${++prepared}`;
    const closing: string[] = [];
    if (this.#statements.size >= this.maxStatements) {
      const [oldest, statement] = this.#statements.entries().next().value as [string, Statement];
      this.#statements.delete(oldest);
      this.#stale.push(statement.name);
    }
    // Closing an unknown name is no error, but a failed transaction may refuse the Close: close only outside one.
    if (!this.pglite.isInTransaction()) closing.push(...this.#stale.splice(0));
    const message = concat([
      ...closing.map((stale) => serialize.close({ type: 'S', name: stale })),
      serialize.parse({ name, text: sqlText }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    try {
      const { messages } = await this.pglite.execProtocol(message, { syncToFs: false });
      const description = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
      const statement = { name, paramTypes: description?.dataTypeIDs ?? [] };
      this.#statements.set(sqlText, statement);
      return statement;
    } catch (error) {
      this.#stale.push(...closing);
      throw withQuery(error, sqlText, params);
    }
  }
}

/** Postgres' "cached plan must not change result type": a column added to or dropped from a table read with `*`. */
const isResultTypeChange = (error: unknown) =>
  error instanceof Error && (error as { code?: unknown }).code === '0A000' && error.message.includes('cached plan must not change result type');

/** The error with the statement that raised it, as PGlite's `query` reports it. */
function withQuery(error: unknown, query: string, params: readonly unknown[]): unknown {
  if (error instanceof Error) Object.assign(error, { query, params });
  return error;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
