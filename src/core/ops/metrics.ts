import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql, type SelectQueryBuilder } from 'kysely';
import { poolUsage, type Database, type DB } from '../../toolkit/db/index.ts';
import type { BackgroundJobObserver, JobOutcome } from '../../toolkit/background.ts';
import { DATABASE_DEADLINE_MS, withinDeadline } from './deadline.ts';

/**
 * What became of a play, the counter's `outcome` label: a ListenOutcome's status (src/core/scrobbling/ingest.ts).
 * Spelled out here, not read from ingest, because the context holds the metrics and ingest takes the context:
 * ingest's call to playsIngested fails to compile if a status is added there and not here.
 */
export type PlayOutcome = 'stored' | 'duplicate' | 'ignored';
const PLAY_OUTCOMES: readonly PlayOutcome[] = ['stored', 'duplicate', 'ignored'];

/** An import whose last batch is older than this is taken as abandoned, not running (the CLI sends one every few seconds). */
const IMPORT_ACTIVE_MINUTES = 10;

/**
 * One process's metrics, in a registry of its own rather than prom-client's global one: both
 * hosts of a process record into it (labelled by host), and tests can run several apps side by
 * side without their counts mixing. Gauges read from the database are read when scraped.
 */
export class Metrics implements BackgroundJobObserver {
  readonly registry = new Registry();
  readonly #requests = new Histogram({
    name: 'earshot_http_request_duration_seconds',
    help: 'HTTP requests by host, method, route pattern and status code, and how long each took to answer',
    labelNames: ['host', 'method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly #plays = new Counter({
    name: 'earshot_plays_ingested_total',
    help: 'Plays that reached the store, counted once committed, by protocol (or import:<format>) and outcome (stored, duplicate, ignored)',
    labelNames: ['protocol', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #jobRuns = new Counter({
    name: 'earshot_background_job_runs_total',
    help: 'Finished runs of the background jobs, by job and outcome (succeeded, failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly #cachedAnswers = new Counter({
    name: 'earshot_response_cache_answers_total',
    help: 'Answers of the cacheable XRPC queries, by nsid and how: sent from the kept bytes (hit), computed (miss), or taken from the same computation of another request (joined)',
    labelNames: ['nsid', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(db: Database) {
    collectDefaultMetrics({ register: this.registry });
    this.#databaseGauges(db);
  }

  requestServed(host: string, method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe({ host, method, route, status: String(status) }, seconds);
  }

  playsIngested(protocol: string, outcomes: readonly { status: PlayOutcome }[]): void {
    for (const { status } of outcomes) this.#plays.inc({ protocol, outcome: status });
  }

  /** An import batch's counts at once; its records that held no listen count as ignored. */
  playsImported(format: string, counts: Record<PlayOutcome, number>): void {
    for (const outcome of PLAY_OUTCOMES) if (counts[outcome] > 0) this.#plays.inc({ protocol: `import:${format}`, outcome }, counts[outcome]);
  }

  answerCached(nsid: string, outcome: 'hit' | 'miss' | 'joined'): void {
    this.#cachedAnswers.inc({ nsid, outcome });
  }

  jobRan(job: string, outcome: JobOutcome): void {
    this.#jobRuns.inc({ job, outcome });
  }

  #databaseGauges(db: Database): void {
    const registers = [this.registry];
    new Gauge({
      name: 'earshot_stats_queue_depth',
      help: 'Plays queued (stats_queue rows) for the background fold into the statistics rollups, whole database; NaN when the database did not answer',
      registers,
      // Summed from the per-user counts (migration 0020): counting the unindexed queue itself scans it, dead rows and all.
      collect: fromDatabase(async () => {
        const { n } = await db
          .selectFrom('stats_queue_users')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('queued'), eb.val('0')).as('n'))
          .executeTakeFirstOrThrow();
        return Number(n);
      }),
    });
    new Gauge({
      name: 'earshot_imports_running',
      help: `Imports not complete whose last batch arrived within ${IMPORT_ACTIVE_MINUTES} minutes, whole database; NaN when the database did not answer`,
      registers,
      collect: fromDatabase(() =>
        countRows(
          db
            .selectFrom('import_checkpoints')
            .where('completed_at', 'is', null)
            .where('updated_at', '>', sql<Date>`now() - make_interval(mins => ${IMPORT_ACTIVE_MINUTES})`),
        ),
      ),
    });
    new Gauge({
      name: 'earshot_db_pool_connections',
      help: "This process's database connections by state (busy, idle); the embedded database is one connection",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const usage = poolUsage(db);
        if (!usage) return;
        this.set({ state: 'busy' }, usage.total - usage.idle);
        this.set({ state: 'idle' }, usage.idle);
      },
    });
    new Gauge({
      name: 'earshot_db_pool_waiting',
      help: "This process's statements waiting for a database connection",
      registers,
      collect() {
        const usage = poolUsage(db);
        if (usage) this.set(usage.waiting);
      },
    });
  }
}

async function countRows(rows: SelectQueryBuilder<DB, keyof DB, object>): Promise<number> {
  const { n } = await rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return n;
}

/** A gauge's collect that reads the database within the deadline; an unknown value is NaN, never a stale or made-up one. */
function fromDatabase(read: () => Promise<number>) {
  return async function (this: Gauge) {
    this.set(await withinDeadline(read(), DATABASE_DEADLINE_MS, 'the database').catch(() => Number.NaN));
  };
}
