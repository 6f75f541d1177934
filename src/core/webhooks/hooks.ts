/** Users' webhooks: adding one (its secret generated here and shown once), listing, removing, and the delivery log. */
import { randomBytes, randomUUID } from 'node:crypto';
import dns from 'node:dns/promises';
import { inTransaction } from '../../toolkit/db/index.ts';
import type { WebhookDeliveryState, WebhookEvent } from '../../toolkit/db/index.ts';
import { httpUrlParam, invalidRequest, notFound, XrpcError } from '../../toolkit/errors.ts';
import { isPublicAddress, literalHostProblem } from '../../toolkit/public-address.ts';
import { openOrNull, seal } from '../auth/encryption.ts';
import type { AppContext } from '../context.ts';

/** How many webhooks one account may have: more than anyone needs, and a bound on the work a play makes. */
export const MAX_HOOKS_PER_ACCOUNT = 10;

/** The events a hook may take; `test` is only ever sent by testHook. */
export type HookEvent = Exclude<WebhookEvent, 'test'>;

export interface HookView {
  id: string;
  url: string;
  events: HookEvent[];
  createdAt: Date;
  /** The newest delivery's outcome, for a glance at whether the hook works. */
  lastDelivery: DeliveryView | null;
  queued: number;
}

export interface DeliveryView {
  deliveryId: string;
  event: WebhookEvent;
  state: WebhookDeliveryState;
  attempts: number;
  status: number | null;
  response: string | null;
  durationMs: number | null;
  attemptedAt: Date | null;
  createdAt: Date;
}

/** The context a hook's sealed secret is bound to: a sealed value copied onto another row does not open there. */
const secretContext = (userId: string, hookId: string) => `webhook:${userId}:${hookId}`;

export const openHookSecret = (ctx: AppContext, userId: string, hookId: string, sealed: string) =>
  openOrNull(ctx.keys.encryption, sealed, secretContext(userId, hookId));

/**
 * The URL if a webhook may point there: http(s), and, unless the operator allows private
 * addresses, a host that resolves to public addresses only. The sender checks again at each
 * connection (a name's addresses may change); this check only answers the user at once.
 */
async function checkedUrl(ctx: AppContext, raw: string): Promise<string> {
  const url = httpUrlParam('url', raw);
  if (url.username || url.password) throw invalidRequest('url must not carry a user name or password: put a token in its path or query');
  const allowPrivate = ctx.config.webhooks.allowPrivate;
  const literal = literalHostProblem(url, allowPrivate);
  if (literal)
    throw invalidRequest(`${literal}: webhooks go to public addresses (the operator may allow private ones with EARSHOT_WEBHOOKS_ALLOW_PRIVATE=true)`);
  if (!allowPrivate) {
    const addresses = await dns.lookup(url.hostname, { all: true }).catch(() => null);
    if (!addresses) throw invalidRequest(`${url.hostname}: the host name is not known`);
    if (!addresses.some((entry) => isPublicAddress(entry.address))) {
      throw invalidRequest(`${url.hostname} is not on a public address (the operator may allow private ones with EARSHOT_WEBHOOKS_ALLOW_PRIVATE=true)`);
    }
  }
  return url.toString();
}

/** Adds a hook; answers it with its signing secret, which is never shown again. */
export async function createHook(ctx: AppContext, userId: string, input: { url: string; events: HookEvent[] }): Promise<{ hook: HookView; secret: string }> {
  const url = await checkedUrl(ctx, input.url);
  const events = [...new Set(input.events)];
  if (events.length === 0) throw invalidRequest('events must name at least one of scrobble, nowPlaying, love');
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const id = await inTransaction(ctx.db, async (tx) => {
    // The user's row locked first: concurrent additions are counted one after another.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const { count } = await tx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_HOOKS_PER_ACCOUNT) {
      throw new XrpcError(409, 'LimitExceeded', `An account may have at most ${MAX_HOOKS_PER_ACCOUNT} webhooks; remove one first`);
    }
    // The id is chosen here so the secret is sealed under it in the one insert.
    const hookId = randomUUID();
    await tx
      .insertInto('webhooks')
      .values({ user_id: userId, id: hookId, url, events, secret_sealed: seal(ctx.keys.encryption, secret, secretContext(userId, hookId)) })
      .execute();
    return hookId;
  });
  return { hook: await getHook(ctx, userId, id), secret };
}

export async function deleteHook(ctx: AppContext, userId: string, hookId: string): Promise<void> {
  const result = await ctx.db.deleteFrom('webhooks').where('user_id', '=', userId).where('id', '=', hookId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('No such webhook');
}

export async function requireHook(ctx: AppContext, userId: string, hookId: string) {
  const row = await ctx.db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).where('id', '=', hookId).executeTakeFirst();
  if (!row) throw notFound('No such webhook');
  return row;
}

export async function listHooks(ctx: AppContext, userId: string): Promise<HookView[]> {
  const rows = await ctx.db.selectFrom('webhooks').select('id').where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return Promise.all(rows.map((row) => getHook(ctx, userId, row.id)));
}

export async function getHook(ctx: AppContext, userId: string, hookId: string): Promise<HookView> {
  const hook = await requireHook(ctx, userId, hookId);
  const [last] = await listDeliveries(ctx, userId, hookId, 1);
  const { count } = await ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('hook_id', '=', hookId)
    .where('state', '=', 'queued')
    .executeTakeFirstOrThrow();
  return { id: hook.id, url: hook.url, events: hook.events as HookEvent[], createdAt: hook.created_at, lastDelivery: last ?? null, queued: Number(count) };
}

/** A hook's deliveries, newest first: the log (sender.ts keeps the newest DELIVERY_LOG_SIZE). */
export async function listDeliveries(ctx: AppContext, userId: string, hookId: string, limit: number): Promise<DeliveryView[]> {
  const rows = await ctx.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('user_id', '=', userId)
    .where('hook_id', '=', hookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    deliveryId: row.delivery_id,
    event: row.event,
    state: row.state,
    attempts: row.attempts,
    status: row.last_status,
    response: row.last_response,
    durationMs: row.last_duration_ms,
    attemptedAt: row.last_attempt_at,
    createdAt: row.created_at,
  }));
}
