import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { BackgroundJob } from '../../toolkit/background.ts';
import { backoffMs, type Backoff } from '../../toolkit/retry.ts';
import { inTransaction, type DB } from '../../toolkit/db/index.ts';
import type { RelayOutboxOp } from '../../toolkit/db/schema.ts';
import type { AppContext } from '../context.ts';
import { ProviderError } from '../providers/errors.ts';
import { AccessTokenRefused } from '../providers/http.ts';
import { relayPlay, serviceFor, TargetUnusable, type TargetRow } from './services.ts';

export interface SenderOptions extends Backoff {
  /** How long a claimed batch is the claimer's; after that (a sender killed mid-batch) another takes it. */
  leaseMs: number;
  /** Tries before a play is dead. */
  maxAttempts: number;
}

export const SENDER_DEFAULTS: SenderOptions = { leaseMs: 120_000, maxAttempts: 10, backoffBaseMs: 30_000, backoffMaxMs: 6 * 3_600_000 };

interface ClaimedRow {
  id: string;
  scrobble_id: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export interface ClaimedBatch {
  target: TargetRow;
  /** A batch is all plays, or one deletion. */
  op: RelayOutboxOp;
  /** Fences the batch: only its claimer, while the lease holds, may settle its rows. */
  token: string;
  rows: ClaimedRow[];
}

/** The most plays a batch to this kind of target carries (each client's maxBatch); a deletion goes alone. */
const BATCH: Record<TargetRow['kind'], number> = { listenbrainz: 1000, earshot: 1000, lastfm: 50, maloja: 1 };

/**
 * Takes the next due batch: the oldest due play's target, then up to a batch of that target's due
 * plays, leased to this claim. Rows another sender is claiming are skipped (SKIP LOCKED), so
 * several processes on one database each take different plays; a lease that ran out (its sender
 * died) makes the rows due again.
 */
export async function claimBatch(ctx: AppContext, options: SenderOptions = SENDER_DEFAULTS): Promise<ClaimedBatch | null> {
  return inTransaction(ctx.db, async (tx) => {
    const due = sql`o.state = 'queued' and o.next_attempt_at <= now() and (o.lease_until is null or o.lease_until < now())`;
    const { rows: next } = await sql<{ user_id: string; target_id: string; op: RelayOutboxOp }>`
      select o.user_id, o.target_id, o.op from relay_outbox o
      join relay_targets t on t.user_id = o.user_id and t.id = o.target_id
      where ${due} and t.secret_sealed is not null and (t.hold_until is null or t.hold_until <= now())
      order by o.next_attempt_at, o.id limit 1
      for update of o skip locked`.execute(tx);
    if (!next[0]) return null;
    const target = await tx
      .selectFrom('relay_targets')
      .selectAll()
      .where('user_id', '=', next[0].user_id)
      .where('id', '=', next[0].target_id)
      .executeTakeFirstOrThrow();
    const token = randomUUID();
    const { op } = next[0];
    const { rows } = await sql<ClaimedRow>`
      update relay_outbox set lease_until = now() + ${`${options.leaseMs} milliseconds`}::interval, lease_token = ${token}, attempts = attempts + 1
      where (user_id, id) in (
        select o.user_id, o.id from relay_outbox o
        where o.user_id = ${target.user_id} and o.target_id = ${target.id} and o.op = ${op} and ${due}
        order by o.id limit ${op === 'delete' ? 1 : BATCH[target.kind]}
        for update skip locked)
      returning id, scrobble_id, payload, attempts`.execute(tx);
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    return rows.length > 0 ? { target, op, token, rows } : null;
  });
}

type Settled = { delivered: string[]; refused: Map<string, string> };

/** Sends a claimed batch and settles each play; answers how many were delivered. */
export async function deliverBatch(ctx: AppContext, batch: ClaimedBatch, options: SenderOptions = SENDER_DEFAULTS): Promise<number> {
  const settled: Settled = { delivered: [], refused: new Map() };
  try {
    if (batch.op === 'scrobble') await send(ctx, batch.target, batch.rows, settled);
    else if (!(await sendDeletion(ctx, batch, settled))) return 0;
  } catch (error) {
    // Nothing of the batch was settled as sent: the target is down, limiting, or failed.
    await retryLater(ctx, batch, error, options);
    return 0;
  }
  await settle(ctx, batch, settled);
  return settled.delivered.length;
}

async function send(ctx: AppContext, target: TargetRow, rows: readonly ClaimedRow[], settled: Settled): Promise<void> {
  let answers: (string | null)[];
  try {
    answers = await serviceFor(ctx, target).scrobble(rows.map((row) => relayPlay(row.payload)));
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === null) throw error;
    // A protocol that refuses a batch whole (ListenBrainz) may refuse it for one play: each alone finds which.
    if (rows.length > 1 && error instanceof ProviderError) {
      for (const row of rows) await send(ctx, target, [row], settled);
      return;
    }
    for (const row of rows) settled.refused.set(row.id, refusal);
    return;
  }
  rows.forEach((row, i) => (answers[i] === null ? settled.delivered.push(row.id) : settled.refused.set(row.id, answers[i]!)));
}

/**
 * Asks the target to delete a play it was sent. The play's own row says whether it was: delivered,
 * the deletion goes; still being sent (a live lease), the deletion waits for that lease and answers
 * false (not settled, no try spent); otherwise the target never had it, and the deletion is done.
 */
async function sendDeletion(ctx: AppContext, batch: ClaimedBatch, settled: Settled): Promise<boolean> {
  const { target, token } = batch;
  const row = batch.rows[0]!;
  const { rows: sent } = await sql<{ state: string; in_flight: boolean; lease_until: Date | null }>`
    select state, coalesce(lease_until > now(), false) as in_flight, lease_until from relay_outbox
    where user_id = ${target.user_id} and scrobble_id = ${row.scrobble_id} and target_id = ${target.id} and op = 'scrobble'`.execute(ctx.db);
  const play = sent[0];
  if (play?.in_flight) {
    await ctx.db
      .updateTable('relay_outbox')
      .set({ next_attempt_at: play.lease_until!, attempts: sql<number>`attempts - 1`, lease_until: null, lease_token: null })
      .where('user_id', '=', target.user_id)
      .where('lease_token', '=', token)
      .where('id', '=', row.id)
      .execute();
    return false;
  }
  let refusal: string | null = null;
  try {
    const service = play?.state === 'delivered' ? serviceFor(ctx, target) : null;
    if (service?.deleteScrobble) refusal = await service.deleteScrobble(relayPlay(row.payload));
  } catch (error) {
    refusal = refusalOf(error);
    if (refusal === null) throw error;
  }
  if (refusal === null) settled.delivered.push(row.id);
  else settled.refused.set(row.id, refusal);
  return true;
}

/** The target's refusal, to keep with the play; null for a failure worth retrying. */
function refusalOf(error: unknown): string | null {
  if (error instanceof TargetUnusable) return error.message;
  if (error instanceof AccessTokenRefused) return `${error.provider} refused the credential (HTTP 401): check the token or key`;
  if (error instanceof ProviderError && error.failure === 'Refused') return error.message;
  return null;
}

async function settle(ctx: AppContext, batch: ClaimedBatch, settled: Settled): Promise<void> {
  const { target, token } = batch;
  await inTransaction(ctx.db, async (tx) => {
    await dropDeletedPlays(tx, batch, [...settled.refused.keys()]);
    const mine = (ids: string[]) =>
      tx.updateTable('relay_outbox').where('user_id', '=', target.user_id).where('lease_token', '=', token).where('id', 'in', ids);
    if (settled.delivered.length > 0) {
      await mine(settled.delivered)
        .set({ state: 'delivered', delivered_at: sql<Date>`now()`, lease_until: null, lease_token: null, last_error: null })
        .execute();
      if (batch.op === 'scrobble') await deletionsDueNow(tx, batch, settled.delivered);
    }
    for (const [id, reason] of settled.refused) {
      await mine([id]).set({ state: 'refused', lease_until: null, lease_token: null, last_error: reason }).execute();
    }
    const lastRefusal = [...settled.refused.values()].at(-1);
    await tx
      .updateTable('relay_targets')
      .set({
        hold_until: null,
        ...(settled.delivered.length > 0 ? { last_success_at: sql<Date>`now()` } : {}),
        ...(lastRefusal ? { last_error: lastRefusal, last_error_at: sql<Date>`now()` } : {}),
      })
      .where('user_id', '=', target.user_id)
      .where('id', '=', target.id)
      .execute();
  });
}

/**
 * Of a batch's plays the target did not take, those deleted while they were being sent: they are
 * not kept to be tried again, nor as dead letters (the deletion's trigger dropped every other row
 * of them; a row under a live lease was left to its sender). Answers the ids dropped.
 */
async function dropDeletedPlays(tx: Transaction<DB>, batch: ClaimedBatch, ids: readonly string[]): Promise<Set<string>> {
  if (batch.op !== 'scrobble' || ids.length === 0) return new Set();
  const dropped = await tx
    .deleteFrom('relay_outbox')
    .where('user_id', '=', batch.target.user_id)
    .where('lease_token', '=', batch.token)
    .where('id', 'in', ids)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('scrobbles')
            .select('id')
            .whereRef('scrobbles.user_id', '=', 'relay_outbox.user_id')
            .whereRef('scrobbles.id', '=', 'relay_outbox.scrobble_id'),
        ),
      ),
    )
    .returning('id')
    .execute();
  return new Set(dropped.map((row) => row.id));
}

/** Deletions of plays deleted while they were being sent were held back until the send was settled (sendDeletion): now they are due. */
async function deletionsDueNow(tx: Transaction<DB>, batch: ClaimedBatch, delivered: readonly string[]): Promise<void> {
  const ids = new Set(delivered);
  await tx
    .updateTable('relay_outbox')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('user_id', '=', batch.target.user_id)
    .where('target_id', '=', batch.target.id)
    .where('op', '=', 'delete')
    .where('state', '=', 'queued')
    .where(
      'scrobble_id',
      'in',
      batch.rows.filter((row) => ids.has(row.id)).map((row) => row.scrobble_id),
    )
    .where('next_attempt_at', '>', sql<Date>`now()`)
    .execute();
}

/** A failed try: each play waits its backoff (or the target's Retry-After), or is dead once out of tries; the target is held as long. */
async function retryLater(ctx: AppContext, batch: ClaimedBatch, error: unknown, options: SenderOptions): Promise<void> {
  const { target, token } = batch;
  const reason = error instanceof Error ? error.message : String(error);
  const retryAfterMs = error instanceof ProviderError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
  let holdMs = 0;
  await inTransaction(ctx.db, async (tx) => {
    const dropped = await dropDeletedPlays(
      tx,
      batch,
      batch.rows.map((row) => row.id),
    );
    for (const row of batch.rows.filter((row) => !dropped.has(row.id))) {
      const mine = tx.updateTable('relay_outbox').where('user_id', '=', target.user_id).where('lease_token', '=', token).where('id', '=', row.id);
      if (row.attempts >= options.maxAttempts) {
        await mine.set({ state: 'dead', lease_until: null, lease_token: null, last_error: reason }).execute();
        continue;
      }
      const waitMs = Math.max(backoffMs(row.attempts, options), retryAfterMs);
      holdMs = Math.max(holdMs, waitMs);
      await mine
        .set({ next_attempt_at: sql<Date>`now() + ${`${waitMs} milliseconds`}::interval`, lease_until: null, lease_token: null, last_error: reason })
        .execute();
    }
    await tx
      .updateTable('relay_targets')
      .set({ hold_until: sql<Date>`now() + ${`${holdMs} milliseconds`}::interval`, last_error: reason, last_error_at: sql<Date>`now()` })
      .where('user_id', '=', target.user_id)
      .where('id', '=', target.id)
      .execute();
  });
}

/** Delivers batches until nothing is due (or `signal` aborts); answers how many plays were delivered. */
export async function deliverDue(ctx: AppContext, options: SenderOptions = SENDER_DEFAULTS, signal?: AbortSignal): Promise<number> {
  let delivered = 0;
  for (let batch = await claimBatch(ctx, options); batch && !signal?.aborted; batch = await claimBatch(ctx, options)) {
    delivered += await deliverBatch(ctx, batch, options);
  }
  return delivered;
}

/** The serving process's relay sender: every few seconds (EARSHOT_RELAY_POLL_SECONDS), whatever is due. */
export function relayJob(ctx: AppContext): BackgroundJob {
  const options: SenderOptions = { ...SENDER_DEFAULTS, leaseMs: ctx.config.relay.leaseSeconds * 1000 };
  return {
    name: 'Relay',
    intervalMs: ctx.config.relay.pollSeconds * 1000,
    async run(signal) {
      const delivered = await deliverDue(ctx, options, signal);
      return delivered >= 1000 ? `relayed ${delivered} plays` : undefined;
    },
  };
}
