/**
 * The webhook sender: takes due deliveries under a lease (SKIP LOCKED, so several processes on one
 * database each take different ones), posts each signed, and settles it: delivered on a 2xx,
 * else tried again after a backoff with jitter (or the receiver's Retry-After, if longer) until
 * out of tries. Each try's outcome is kept on its row; a hook's log keeps its newest rows.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { BackgroundJob } from '../../toolkit/background.ts';
import type { WebhookEvent } from '../../toolkit/db/index.ts';
import { backoffMs, type Backoff } from '../../toolkit/retry.ts';
import type { AppContext } from '../context.ts';
import { listDeliveries, openHookSecret, requireHook, type DeliveryView } from './hooks.ts';
import { postSigned } from './post.ts';

export interface WebhookSenderOptions extends Backoff {
  /** How long a claimed delivery is the claimer's; after that (a sender killed mid-try) another takes it. */
  leaseMs: number;
  /** Tries before a delivery is dead. */
  maxAttempts: number;
}

export const WEBHOOK_SENDER_DEFAULTS: WebhookSenderOptions = { leaseMs: 60_000, maxAttempts: 8, backoffBaseMs: 10_000, backoffMaxMs: 3_600_000 };

/** Deliveries a hook's log keeps (the queued ones are kept whatever their number). */
export const DELIVERY_LOG_SIZE = 50;

/** How often a serving process looks for due deliveries: a now-playing is stale in minutes. */
const SEND_INTERVAL_MS = 2_000;
/** Deliveries claimed at once. */
const CLAIM = 20;

interface ClaimedDelivery {
  user_id: string;
  id: string;
  hook_id: string;
  delivery_id: string;
  event: WebhookEvent;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  lease_token: string;
}

/** The JSON body: the event, its ids, its data, and a line of text for chat-style receivers (Discord reads `content`, others `text`). */
export function deliveryBody(row: Pick<ClaimedDelivery, 'event' | 'delivery_id' | 'payload' | 'created_at'>): string {
  const user = row.payload.user as { handle: string } | undefined;
  const song = (row.payload.scrobble ?? row.payload.track) as { artist: string; title: string } | undefined;
  const what = song ? `${song.artist} – ${song.title}` : '';
  const line: Record<WebhookEvent, string> = {
    scrobble: `${user?.handle} played ${what}`,
    nowPlaying: `${user?.handle} is playing ${what}`,
    love: row.payload.loved ? `${user?.handle} loves ${what}` : `${user?.handle} no longer loves ${what}`,
    test: `A test event from Earshot for ${user?.handle}: this webhook works`,
  };
  const text = line[row.event];
  return JSON.stringify({ event: row.event, deliveryId: row.delivery_id, createdAt: row.created_at.toISOString(), ...row.payload, text, content: text });
}

async function claimDue(ctx: AppContext, options: WebhookSenderOptions): Promise<ClaimedDelivery[]> {
  const token = randomUUID();
  const { rows } = await sql<ClaimedDelivery>`
    update webhook_deliveries set lease_until = now() + ${`${options.leaseMs} milliseconds`}::interval, lease_token = ${token}, attempts = attempts + 1
    where (user_id, id) in (
      select user_id, id from webhook_deliveries
      where state = 'queued' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
      order by next_attempt_at, id limit ${CLAIM}
      for update skip locked)
    returning user_id, id, hook_id, delivery_id, event, payload, attempts, created_at, lease_token`.execute(ctx.db);
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Posts one claimed delivery and settles it; answers whether the receiver took it. */
async function deliverOne(ctx: AppContext, row: ClaimedDelivery, options: WebhookSenderOptions): Promise<boolean> {
  const hook = await ctx.db.selectFrom('webhooks').selectAll().where('user_id', '=', row.user_id).where('id', '=', row.hook_id).executeTakeFirst();
  if (!hook) return false; // Removed meanwhile: its deliveries went with it.
  const secret = openHookSecret(ctx, hook.user_id, hook.id, hook.secret_sealed);
  const outcome = secret
    ? await postSigned({
        url: hook.url,
        secret,
        event: row.event,
        deliveryId: row.delivery_id,
        body: deliveryBody(row),
        allowPrivate: ctx.config.webhooks.allowPrivate,
      })
    : {
        status: null,
        response: 'the secret does not open on this server (EARSHOT_SECRET changed?): add the webhook again',
        durationMs: 0,
        retryAfterSeconds: undefined,
      };
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  // A test event is tried once: the user is waiting for its answer.
  const dead = !delivered && (!secret || row.event === 'test' || row.attempts >= options.maxAttempts);
  const waitMs = Math.max(backoffMs(row.attempts, options), (outcome.retryAfterSeconds ?? 0) * 1000);
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({
      state: delivered ? 'delivered' : dead ? 'dead' : 'queued',
      next_attempt_at: sql<Date>`now() + ${`${delivered || dead ? 0 : waitMs} milliseconds`}::interval`,
      lease_until: null,
      lease_token: null,
      last_status: outcome.status,
      last_response: outcome.response,
      last_duration_ms: outcome.durationMs,
      last_attempt_at: sql<Date>`now()`,
    })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .where('lease_token', '=', row.lease_token)
    .execute();
  if (delivered || dead) await trimLog(ctx, row.user_id, row.hook_id);
  return delivered;
}

/** Keeps a hook's newest DELIVERY_LOG_SIZE settled deliveries. */
async function trimLog(ctx: AppContext, userId: string, hookId: string): Promise<void> {
  await sql`
    delete from webhook_deliveries
    where user_id = ${userId} and hook_id = ${hookId} and state <> 'queued' and id < (
      select min(id) from (
        select id from webhook_deliveries where user_id = ${userId} and hook_id = ${hookId} and state <> 'queued'
        order by id desc limit ${DELIVERY_LOG_SIZE}) newest)`.execute(ctx.db);
}

/**
 * Posts one hook's claimed deliveries one after another, oldest first, so a receiver sees a
 * now-playing before the love that followed it; different hooks are posted side by side. A
 * delivery that is retried later can still arrive after newer ones: each carries its createdAt.
 */
async function deliverInOrder(ctx: AppContext, rows: ClaimedDelivery[], options: WebhookSenderOptions): Promise<number> {
  let delivered = 0;
  for (const row of rows) if (await deliverOne(ctx, row, options)) delivered++;
  return delivered;
}

/** Delivers what is due until nothing is (or `signal` aborts); answers how many deliveries the receivers took. */
export async function deliverDueWebhooks(ctx: AppContext, options: WebhookSenderOptions = WEBHOOK_SENDER_DEFAULTS, signal?: AbortSignal): Promise<number> {
  let delivered = 0;
  for (let rows = await claimDue(ctx, options); rows.length > 0 && !signal?.aborted; rows = await claimDue(ctx, options)) {
    const byHook = Map.groupBy(rows, (row) => `${row.user_id}/${row.hook_id}`);
    const outcomes = await Promise.all([...byHook.values()].map((hookRows) => deliverInOrder(ctx, hookRows, options)));
    delivered += outcomes.reduce((sum, count) => sum + count, 0);
  }
  return delivered;
}

/** Sends a test event to a hook now, once, and answers its log entry. */
export async function testHook(ctx: AppContext, userId: string, hookId: string): Promise<DeliveryView> {
  await requireHook(ctx, userId, hookId);
  const user = await ctx.db.selectFrom('users').select(['did', 'handle']).where('id', '=', userId).executeTakeFirstOrThrow();
  const token = randomUUID();
  const row = await ctx.db
    .insertInto('webhook_deliveries')
    .values({
      user_id: userId,
      hook_id: hookId,
      event: 'test',
      payload: JSON.stringify({ user }),
      attempts: 1,
      lease_until: sql<Date>`now() + interval '1 minute'`,
      lease_token: token,
    })
    .returning(['user_id', 'id', 'hook_id', 'delivery_id', 'event', 'payload', 'attempts', 'created_at'])
    .executeTakeFirstOrThrow();
  await deliverOne(ctx, { ...row, lease_token: token }, WEBHOOK_SENDER_DEFAULTS);
  const [entry] = (await listDeliveries(ctx, userId, hookId, DELIVERY_LOG_SIZE)).filter((delivery) => delivery.deliveryId === row.delivery_id);
  return entry!;
}

/** The serving process's webhook sender: every few seconds, whatever is due. */
export function webhookJob(ctx: AppContext): BackgroundJob {
  return {
    name: 'Webhooks',
    intervalMs: SEND_INTERVAL_MS,
    async run(signal) {
      const delivered = await deliverDueWebhooks(ctx, WEBHOOK_SENDER_DEFAULTS, signal);
      return delivered >= 1000 ? `delivered ${delivered} webhook events` : undefined;
    },
  };
}
