import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGlitePool, type PoolUsage } from './pglite-pool.ts';
import { durablePgliteOptions, syncNewDataDir } from './durable-fs.ts';
import { migrate } from './migrate.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;

export type StorageTarget =
  /**
   * Embedded PGlite; `dataDir` undefined keeps everything in memory. `load`, a dump of a data
   * directory, starts it from that copy (tests start from a migrated template).
   */
  | { kind: 'pglite'; dataDir: string | undefined; load?: Blob }
  /** A PostgreSQL server; `schema` confines every table to one schema (used by tests). */
  | { kind: 'postgres'; url: string; schema?: string };

const INT8_OID = 20;

/**
 * PGlite's 128 MiB of shared buffers are touched at start-up, so they stay resident for the whole
 * process (WebAssembly memory never shrinks); a fresh data directory pays them twice, as PGlite
 * runs initdb in a second instance. One connection reading a personal library needs far fewer,
 * and pages evicted from them are still in the kernel's page cache. 32 MB, not 16: an index read scattered
 * over a 50 MB table took 33 ms with 16 MB and 9.4 ms with 32 (docs/benchmarks.md), for 16 MiB more resident.
 */
const SMALL_BUFFERS = ['-c', 'shared_buffers=32MB'];
/** The same for initdb's own runs of postgres (in that second instance); it also writes it into postgresql.conf. */
const SMALL_BUFFERS_INITDB = ['--set', 'shared_buffers=32MB'];

/** Whether `dataDir` holds a PGlite database already. */
export const hasEmbeddedDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'PG_VERSION'));

/**
 * The embedded database in `dataDir` (in memory when undefined), made from `load` (a dump of
 * PGlite's data directory) when given; the caller holds the data directory's lock.
 */
export async function openPglite(dataDir: string | undefined, load?: Blob, initDbParams: readonly string[] = []): Promise<PGlite> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const isNew = dataDir !== undefined && !hasEmbeddedDatabase(dataDir);
  // int8 arrives as a JS number on both backends, so counts and sums look the same everywhere.
  // In memory there is nothing to make durable; on disk every acknowledged commit must survive power loss.
  const durable = dataDir ? durablePgliteOptions(dataDir) : {};
  const pglite = new PGlite({
    dataDir,
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: Number },
    ...(load ? { loadDataDir: load } : {}),
    ...durable,
    startParams: [...(durable.startParams ?? PGlite.defaultStartParams), ...SMALL_BUFFERS],
    initDbStartParams: [...SMALL_BUFFERS_INITDB, ...initDbParams],
  });
  // Ready before anything is asked of it: dumpDataDir on a database still starting never answers.
  await pglite.waitReady;
  if (dataDir) await syncNewDataDir(pglite, dataDir, isNew);
  return pglite;
}

async function pglitePool(dataDir: string | undefined, load?: Blob): Promise<PGlitePool> {
  return new PGlitePool(await openPglite(dataDir, load));
}

function postgresPool(url: string, schema: string | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // No startup parameter of Earshot's own: PgBouncer refuses `options` (08P01), and settings
    // a statement needs are set in its transaction (statement-settings.ts), which holds behind a
    // pooler in transaction mode. A test's schema is the exception: tests connect directly.
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not take the process down; the next checkout reconnects.
  pool.on('error', () => {});
  return pool;
}

/** Each open database's pool, read for metrics: Kysely keeps its pool to itself, and nothing else needs pg's. */
const poolUsages = new WeakMap<Database, () => PoolUsage>();

/** The pool's use now; undefined for a database not opened by openDatabase. */
export const poolUsage = (db: Database): PoolUsage | undefined => poolUsages.get(db)?.();

function usageOf(pool: PGlitePool | pg.Pool): () => PoolUsage {
  return pool instanceof PGlitePool ? () => pool.usage() : () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
}

const connectionLimits = new WeakMap<Database, number>();

/** How many transactions the database can run at once: 1 on PGlite (one connection), the pool's size on PostgreSQL. */
export const connectionLimit = (db: Database): number => connectionLimits.get(db) ?? 1;

/** Opens the database and brings its schema up to date. */
export async function openDatabase(target: StorageTarget): Promise<Database> {
  const pool = target.kind === 'pglite' ? await pglitePool(target.dataDir, target.load) : postgresPool(target.url, target.schema);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  poolUsages.set(db, usageOf(pool));
  connectionLimits.set(db, pool instanceof PGlitePool ? 1 : (pool.options.max ?? 10));
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
