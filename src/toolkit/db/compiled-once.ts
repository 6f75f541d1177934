import type { Compilable, CompiledQuery } from 'kysely';
import type { Database } from './database.ts';

/** Stands for an argument while the query is compiled; each run puts the argument in its place. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query Kysely builds and compiles once per process instead of on every call, for the hottest
 * lookups (every authenticated request makes one): building and compiling the query tree costs
 * more than reading one row by an index on PGlite. The SQL text depends on no database (no plugin
 * rewrites it), only the parameters do. `build` must use its arguments only as single values
 * compared or inserted (never inspect them, nor pass an array where Kysely would expand it).
 */
export function compiledOnce<Args extends unknown[], Row>(build: (db: Database, ...args: Args) => Compilable<Row>) {
  let compiled: CompiledQuery<Row> | undefined;
  return async (db: Database, ...args: Args): Promise<Row[]> => {
    compiled ??= build(db, ...(args.map((_, i) => new Slot(i)) as Args)).compile();
    const parameters = compiled.parameters.map((value) => (value instanceof Slot ? args[value.index] : value));
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
