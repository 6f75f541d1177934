import { sql } from 'kysely';
import { inTransaction } from '../../toolkit/db/index.ts';
import type { RelayOutboxOp, RelayTargetKind } from '../../toolkit/db/schema.ts';
import { httpUrlParam, invalidRequest, notFound, XrpcError } from '../../toolkit/errors.ts';
import { openOrNull, seal } from '../auth/encryption.ts';
import type { AppContext } from '../context.ts';

/** How many relay targets one account may have: far more than anyone relays to, and a bound. */
export const MAX_TARGETS_PER_ACCOUNT = 10;

export interface NewTarget {
  kind: RelayTargetKind;
  name: string;
  /** The target's API base; required but for Last.fm (the server's own Last.fm endpoint). */
  baseUrl?: string | undefined;
  /** ListenBrainz token, Maloja or Earshot API key; none for Last.fm, linked afterwards. */
  secret?: string | undefined;
  relayImports?: boolean | undefined;
  importsFrom?: Date | undefined;
  importsUntil?: Date | undefined;
}

export interface TargetStatus {
  id: string;
  kind: RelayTargetKind;
  name: string;
  baseUrl: string | null;
  /** Whether the target has its credential (a Last.fm account is linked). */
  linked: boolean;
  accountName: string | null;
  relayImports: boolean;
  importsFrom: Date | null;
  importsUntil: Date | null;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Plays, and deletions of plays, waiting to be delivered. */
  queued: number;
  /** Refused or out of tries: re-sent only by retryDeadLetters. */
  deadLetters: DeadLetter[];
  deadLetterCount: number;
}

export interface DeadLetter {
  scrobbleId: string;
  /** A play that was not delivered, or the deletion of a play delivered before. */
  action: RelayOutboxOp;
  artist: string;
  title: string;
  listenedAt: string;
  state: 'refused' | 'dead';
  error: string | null;
}

/** Dead letters listed per target; the count covers the rest. */
const DEAD_LETTERS_SHOWN = 20;

/** The context a target's sealed secret is bound to: a sealed value copied onto another row does not open there. */
const secretContext = (userId: string, targetId: string) => `relay:${userId}:${targetId}`;

export const sealTargetSecret = (ctx: AppContext, userId: string, targetId: string, secret: string) =>
  seal(ctx.keys.encryption, secret, secretContext(userId, targetId));

export const openTargetSecret = (ctx: AppContext, userId: string, targetId: string, sealed: string) =>
  openOrNull(ctx.keys.encryption, sealed, secretContext(userId, targetId));

function checkedBaseUrl(kind: RelayTargetKind, raw: string | undefined): string | null {
  if (kind === 'lastfm') {
    if (raw) throw invalidRequest("A Last.fm target uses the server's Last.fm application: give no baseUrl");
    return null;
  }
  if (!raw) throw invalidRequest(`A ${kind} target needs the server's baseUrl`);
  httpUrlParam('baseUrl', raw);
  return raw.replace(/\/+$/, '');
}

export async function addTarget(ctx: AppContext, userId: string, target: NewTarget): Promise<TargetStatus> {
  const baseUrl = checkedBaseUrl(target.kind, target.baseUrl);
  if (target.kind === 'lastfm') {
    if (!ctx.config.relay.lastfm) throw new XrpcError(400, 'ProviderNotConfigured', 'This server has no Last.fm application (LASTFM_RELAY_API_KEY)');
    if (target.secret) throw invalidRequest('A Last.fm target takes no secret: link the account with linkLastfm');
  } else if (!target.secret) throw invalidRequest(`A ${target.kind} target needs the user's secret (token or API key)`);
  if (target.importsFrom && target.importsUntil && target.importsFrom >= target.importsUntil) throw invalidRequest('importsFrom must be before importsUntil');
  const id = await inTransaction(ctx.db, async (tx) => {
    // The user's row locked first: concurrent additions are counted one after another.
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const { count } = await tx
      .selectFrom('relay_targets')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_TARGETS_PER_ACCOUNT) {
      throw new XrpcError(409, 'LimitExceeded', `An account may relay to at most ${MAX_TARGETS_PER_ACCOUNT} targets; remove one first`);
    }
    const row = await tx
      .insertInto('relay_targets')
      .values({
        user_id: userId,
        kind: target.kind,
        name: target.name,
        base_url: baseUrl,
        relay_imports: target.relayImports ?? false,
        imports_from: target.importsFrom ?? null,
        imports_until: target.importsUntil ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (target.secret) {
      await tx
        .updateTable('relay_targets')
        .set({ secret_sealed: sealTargetSecret(ctx, userId, row.id, target.secret) })
        .where('user_id', '=', userId)
        .where('id', '=', row.id)
        .execute();
    }
    return row.id;
  });
  return getTargetStatus(ctx, userId, id);
}

export async function removeTarget(ctx: AppContext, userId: string, targetId: string): Promise<void> {
  const result = await ctx.db.deleteFrom('relay_targets').where('user_id', '=', userId).where('id', '=', targetId).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('No such relay target');
}

/** Queues a target's dead letters again, with fresh tries; answers how many. */
export async function retryDeadLetters(ctx: AppContext, userId: string, targetId: string): Promise<number> {
  await requireTarget(ctx, userId, targetId);
  const result = await ctx.db
    .updateTable('relay_outbox')
    .set({ state: 'queued', attempts: 0, next_attempt_at: sql<Date>`now()`, lease_until: null, lease_token: null })
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .where('state', 'in', ['refused', 'dead'])
    .executeTakeFirst();
  // The user asks now: a hold from earlier failures does not make them wait.
  await ctx.db.updateTable('relay_targets').set({ hold_until: null }).where('user_id', '=', userId).where('id', '=', targetId).execute();
  return Number(result.numUpdatedRows);
}

async function requireTarget(ctx: AppContext, userId: string, targetId: string) {
  const row = await ctx.db.selectFrom('relay_targets').selectAll().where('user_id', '=', userId).where('id', '=', targetId).executeTakeFirst();
  if (!row) throw notFound('No such relay target');
  return row;
}

export async function listTargets(ctx: AppContext, userId: string): Promise<TargetStatus[]> {
  const rows = await ctx.db.selectFrom('relay_targets').select('id').where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return Promise.all(rows.map((row) => getTargetStatus(ctx, userId, row.id)));
}

export async function getTargetStatus(ctx: AppContext, userId: string, targetId: string): Promise<TargetStatus> {
  const target = await requireTarget(ctx, userId, targetId);
  const counts = await ctx.db
    .selectFrom('relay_outbox')
    .select(['state', (eb) => eb.fn.countAll<string>().as('count')])
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .where('state', 'in', ['queued', 'refused', 'dead'])
    .groupBy('state')
    .execute();
  const count = (state: string) => Number(counts.find((row) => row.state === state)?.count ?? 0);
  const dead = await ctx.db
    .selectFrom('relay_outbox')
    .select(['scrobble_id', 'op', 'payload', 'state', 'last_error'])
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .where('state', 'in', ['refused', 'dead'])
    .orderBy('id', 'desc')
    .limit(DEAD_LETTERS_SHOWN)
    .execute();
  return {
    id: target.id,
    kind: target.kind,
    name: target.name,
    baseUrl: target.base_url,
    linked: target.secret_sealed !== null,
    accountName: target.account_name,
    relayImports: target.relay_imports,
    importsFrom: target.imports_from,
    importsUntil: target.imports_until,
    lastSuccessAt: target.last_success_at,
    lastError: target.last_error,
    lastErrorAt: target.last_error_at,
    queued: count('queued'),
    deadLetterCount: count('refused') + count('dead'),
    deadLetters: dead.map((row) => ({
      scrobbleId: row.scrobble_id,
      action: row.op,
      artist: String(row.payload.artist),
      title: String(row.payload.title),
      listenedAt: String(row.payload.listenedAt),
      state: row.state as 'refused' | 'dead',
      error: row.last_error,
    })),
  };
}
