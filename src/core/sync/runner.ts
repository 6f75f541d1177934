import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { BackgroundJob } from '../../toolkit/background.ts';
import { inTransaction, type DB } from '../../toolkit/db/index.ts';
import type { AppContext } from '../context.ts';
import { ProviderError } from '../providers/errors.ts';
import { prepareListens, storePrepared } from '../scrobbling/imports/batch.ts';
import { originTarget } from './origin.ts';
import { expectedPlays, nextStep, type SourceRow, type Step } from './pages.ts';

export interface SyncOptions {
  /** How long a claimed source is its runner's; each committed batch renews it. After that (the runner was killed) another takes it. */
  leaseMs: number;
  /** The first retry's delay after a failed run; each next one doubles, up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /**
   * How far before the previous pass's end a new pass starts: plays scrobbled late (a phone
   * offline for a while) still land inside the next pass. What is fetched twice counts as duplicate.
   */
  lookBackMs: number;
}

export const SYNC_DEFAULTS: SyncOptions = { leaseMs: 120_000, backoffBaseMs: 60_000, backoffMaxMs: 6 * 3_600_000, lookBackMs: 24 * 3_600_000 };

/** The options a serving process runs syncs with: the defaults, but the lease as configured (EARSHOT_SYNC_LEASE_SECONDS). */
export const configuredSyncOptions = (ctx: AppContext): SyncOptions => ({ ...SYNC_DEFAULTS, leaseMs: ctx.config.sync.leaseSeconds * 1000 });

/** The runner's lease was taken over (it ran out: the runner was thought dead) or the source removed: its batch is not stored. */
export class LeaseLost extends Error {}

export interface ClaimedSource {
  row: SourceRow;
  /** Fences the run: only its claimer, while nobody else has claimed the source since, may store a batch. */
  token: string;
}

/**
 * Takes the next due source (or the one named), leased to this claim. A source another runner holds
 * is skipped (SKIP LOCKED, and its lease), so processes on one database run different sources; a
 * lease that ran out (its runner died) makes the source due again, and its pass resumes at its cursor.
 */
export async function claimSource(ctx: AppContext, options: SyncOptions = SYNC_DEFAULTS, only?: { userId: string; id: string }): Promise<ClaimedSource | null> {
  const token = randomUUID();
  const { rows } = await sql<SourceRow>`
    update sync_sources set lease_until = now() + ${`${options.leaseMs} milliseconds`}::interval, lease_token = ${token}, last_run_at = now()
    where (user_id, id) in (
      select user_id, id from sync_sources
      where not paused and next_run_at <= now() and (lease_until is null or lease_until < now())
        ${only ? sql`and user_id = ${only.userId} and id = ${only.id}` : sql``}
      order by next_run_at limit 1
      for update skip locked)
    returning *`.execute(ctx.db);
  return rows[0] ? { row: rows[0], token } : null;
}

/** The source's row, locked, if this claim still holds it. */
async function lockOwn(tx: Transaction<DB>, claim: ClaimedSource): Promise<void> {
  const own = await tx
    .selectFrom('sync_sources')
    .select('id')
    .where('user_id', '=', claim.row.user_id)
    .where('id', '=', claim.row.id)
    .where('lease_token', '=', claim.token)
    .forUpdate()
    .executeTakeFirst();
  if (!own) throw new LeaseLost('the source was taken over or removed');
}

const renewLease = (options: SyncOptions) => sql<Date>`now() + ${`${options.leaseMs} milliseconds`}::interval`;

/** Starts a pass when none is in progress: the whole history first, then from the last pass's end (less the look-back) to now. */
export async function startPass(ctx: AppContext, claim: ClaimedSource, options: SyncOptions = SYNC_DEFAULTS): Promise<void> {
  if (claim.row.pass_to !== null) return;
  const to = new Date(Math.floor(Date.now() / 1000) * 1000);
  const from = claim.row.synced_until ? new Date(claim.row.synced_until.getTime() - options.lookBackMs) : null;
  const expected = await expectedPlays(claim.row, from);
  claim.row = await inTransaction(ctx.db, async (tx) => {
    await lockOwn(tx, claim);
    return tx
      .updateTable('sync_sources')
      .set({ pass_from: from, pass_to: to, pass_before: null, pass_page: null, pass_expected: expected, pass_fetched: 0, lease_until: renewLease(options) })
      .where('user_id', '=', claim.row.user_id)
      .where('id', '=', claim.row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export interface StepResult {
  fetched: number;
  stored: number;
  duplicate: number;
  ignored: number;
  done: boolean;
}

/**
 * Fetches the pass's next page and stores it as one import batch: its plays (through the one
 * duplicate rule), the counts and the cursor commit together, under the lease, so a runner killed
 * at any point leaves the source exactly at its last committed page.
 */
export async function syncStep(ctx: AppContext, claim: ClaimedSource, origin: string | null, options: SyncOptions = SYNC_DEFAULTS): Promise<StepResult> {
  const step: Step = await nextStep(ctx, claim.row);
  const prepared = await prepareListens(ctx.db, ctx.config, step.listens);
  const { row } = claim;
  let result: StepResult = { fetched: 0, stored: 0, duplicate: 0, ignored: 0, done: step.done };
  claim.row = await inTransaction(ctx.db, async (tx) => {
    await lockOwn(tx, claim);
    const outcomes = await storePrepared(tx, row.user_id, prepared, `sync:${row.kind}`, origin);
    const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length;
    const fetched = step.listens.length + step.ignored;
    result = { fetched, stored: count('stored'), duplicate: count('duplicate'), ignored: count('ignored') + step.ignored, done: step.done };
    const finished = step.done
      ? {
          synced_until: row.pass_to,
          pass_to: null,
          pass_before: null,
          pass_page: null,
          history_done_at: row.history_done_at ?? sql<Date>`now()`,
          last_success_at: sql<Date>`now()`,
          last_error: null,
          failures: 0,
          next_run_at: sql<Date>`now() + ${`${ctx.config.sync.intervalMinutes} minutes`}::interval`,
          lease_until: null,
          lease_token: null,
        }
      : { pass_before: step.next.before ?? null, pass_page: step.next.page ?? null, lease_until: renewLease(options) };
    return tx
      .updateTable('sync_sources')
      .set((eb) => ({
        pass_fetched: eb('pass_fetched', '+', fetched),
        fetched: eb('fetched', '+', fetched),
        stored: eb('stored', '+', result.stored),
        duplicate: eb('duplicate', '+', result.duplicate),
        ignored: eb('ignored', '+', result.ignored),
        ...(step.expected !== undefined ? { pass_expected: step.expected } : {}),
        ...finished,
      }))
      .where('user_id', '=', row.user_id)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return result;
}

/** The retry delay after `failures` failed runs: doubling, capped. */
const backoffMs = (failures: number, options: SyncOptions) => Math.min(options.backoffBaseMs * 2 ** Math.max(0, failures - 1), options.backoffMaxMs);

/** Gives the source back: due again at once (a run stopped on request), or after a backoff (a failed one). */
async function release(ctx: AppContext, claim: ClaimedSource, options: SyncOptions, error?: unknown): Promise<void> {
  const { row, token } = claim;
  const retryAfterMs = error instanceof ProviderError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
  const waitMs = error === undefined ? 0 : Math.max(backoffMs(row.failures + 1, options), retryAfterMs);
  await ctx.db
    .updateTable('sync_sources')
    .set((eb) => ({
      lease_until: null,
      lease_token: null,
      next_run_at: sql<Date>`now() + ${`${waitMs} milliseconds`}::interval`,
      ...(error === undefined
        ? {}
        : {
            failures: eb('failures', '+', 1),
            last_error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
            last_error_at: sql<Date>`now()`,
          }),
    }))
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .where('lease_token', '=', token)
    .execute();
}

export interface RunSummary extends Omit<StepResult, 'done'> {
  /** The pass finished (else it stopped on request or failed, and resumes at its cursor). */
  passDone: boolean;
}

/** Runs a claimed source's pass to its end (or until `signal` aborts, or a failure), page after page. */
export async function runClaimed(ctx: AppContext, claim: ClaimedSource, options: SyncOptions = SYNC_DEFAULTS, signal?: AbortSignal): Promise<RunSummary> {
  const summary: RunSummary = { fetched: 0, stored: 0, duplicate: 0, ignored: 0, passDone: false };
  try {
    await startPass(ctx, claim, options);
    const origin = await originTarget(ctx, claim.row);
    while (!summary.passDone) {
      // Paused meanwhile (the row is read back with each batch): it keeps its cursor for when it is resumed.
      if (signal?.aborted || claim.row.paused) {
        await release(ctx, claim, options);
        return summary;
      }
      const step = await syncStep(ctx, claim, origin, options);
      summary.fetched += step.fetched;
      summary.stored += step.stored;
      summary.duplicate += step.duplicate;
      summary.ignored += step.ignored;
      summary.passDone = step.done;
    }
  } catch (error) {
    // Another runner has the source now: it resumes from the last committed page; nothing to undo.
    if (error instanceof LeaseLost) return summary;
    await release(ctx, claim, options, error);
    throw error;
  }
  return summary;
}

/** Runs due sources, one after another, until none is due (or `signal` aborts); answers the plays stored. */
export async function syncDue(ctx: AppContext, options: SyncOptions = SYNC_DEFAULTS, signal?: AbortSignal): Promise<number> {
  let stored = 0;
  for (let claim = await claimSource(ctx, options); claim && !signal?.aborted; claim = await claimSource(ctx, options)) {
    // A source's failure is kept on it (last_error, the backoff): the others still run.
    const summary = await runClaimed(ctx, claim, options, signal).catch(() => null);
    stored += summary?.stored ?? 0;
  }
  return stored;
}

/** The serving process's sync runner: every few seconds (EARSHOT_SYNC_POLL_SECONDS), the sources due. */
export function syncJob(ctx: AppContext): BackgroundJob {
  const options = configuredSyncOptions(ctx);
  return {
    name: 'Sync',
    intervalMs: ctx.config.sync.pollSeconds * 1000,
    async run(signal) {
      const stored = await syncDue(ctx, options, signal);
      return stored > 0 ? `synced in ${stored} plays` : undefined;
    },
  };
}
