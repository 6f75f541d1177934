import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fastifyRateLimit, { normalizeIP, type RateLimitOptions } from '@fastify/rate-limit';
import { XrpcError } from '../../toolkit/errors.ts';
import { normalizeHandle } from '../../core/auth/identifiers.ts';
import { isSignInRefused } from '../../core/auth/refused-sign-ins.ts';
import { LibraryError } from '../../core/library/errors.ts';
import { rateLimitExceeded } from '../../adapters/lastfm/errors.ts';
import { requestParams } from '../../adapters/lastfm/params.ts';
import { rateLimitExceeded as malojaRateLimitExceeded } from '../../adapters/maloja/errors.ts';
import { malojaKeyOf } from '../../adapters/maloja/fields.ts';
import { MEDIA_SERVERS_PREFIX, mediaServerKeyOf } from '../../adapters/media-servers/routes.ts';
import { requestSubsonicParams } from '../../adapters/subsonic/params.ts';
import type { RateLimitConfig } from '../../toolkit/limits-config.ts';
import { budgetStore, redisClient } from './rate-limit-store.ts';
import type { AccountOf, SubmissionCredential } from './submitters.ts';

const MINUTE_MS = 60_000;
const SIGNIN_WINDOW_MS = 15 * MINUTE_MS;
const SUBMISSION_WINDOW_MS = 5 * MINUTE_MS;
const READ_WINDOW_MS = MINUTE_MS;

/** Routes no budget applies to: monitoring must see the server even when clients are refused. */
const UNLIMITED_PATHS = new Set(['/health', '/ready', '/metrics']);

type Protocol = 'xrpc' | 'listenbrainz' | 'lastfm' | 'audioscrobbler' | 'subsonic' | 'maloja';
type BudgetName = 'reads' | 'submissions' | 'signinAttempts' | 'signinFailures';
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Spent = Awaited<ReturnType<Limiter>>;
type Budgets = Record<BudgetName, Limiter>;

/** What a route spends: by IP (reads, sign-ins), by account (submissions), and for sign-ins the account named. */
interface RoutePlan {
  protocol: Protocol;
  spend: 'read' | 'submission' | 'signin' | 'signup' | 'lastfm';
  /** The credential whose account a submission is counted against. */
  credential?: (request: FastifyRequest) => SubmissionCredential | undefined;
  /** The account a password is checked for: its failures are counted, and over the limit it is refused. */
  account?: (request: FastifyRequest, accountOf: AccountOf) => string | undefined | Promise<string | undefined>;
}

/** Secrets (API keys, tokens) and unbounded names never become keys themselves, in memory or in Redis. */
const fingerprint = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

const paramOf = (name: string) => (request: FastifyRequest) => requestParams(request).get(name);
const identifierOf = (request: FastifyRequest) => (request.body as { identifier?: string } | undefined)?.identifier;
const tokenCredential = (token: string | undefined): SubmissionCredential | undefined => (token ? { kind: 'token', token } : undefined);

/** The token without its scheme, sent as ListenBrainz's `Token` or XRPC's `Bearer`. */
const authorizationOf = (request: FastifyRequest) => tokenCredential(request.headers.authorization?.trim().replace(/^(token|bearer)\s+/i, ''));
const malojaCredentialOf = (request: FastifyRequest) => tokenCredential(malojaKeyOf(request));
const mediaServerCredentialOf = (request: FastifyRequest) => tokenCredential(mediaServerKeyOf(request));
const audioscrobblerSessionOf = (request: FastifyRequest): SubmissionCredential | undefined => {
  const sessionId = requestParams(request).get('s');
  return sessionId ? { kind: 'audioscrobbler', sessionId } : undefined;
};
const lastfmCredentialOf = (request: FastifyRequest): SubmissionCredential | undefined => {
  const params = requestParams(request);
  const apiKey = params.get('api_key');
  return apiKey ? { kind: 'lastfm', apiKey, sessionKey: params.get('sk') } : undefined;
};

/** Last.fm's mobile sign-in arrives on the same URL as every other call, by GET or POST; the method parameter tells, in any letter case as the dispatcher reads it. */
const isLastfmSignIn = (request: FastifyRequest) => requestParams(request).get('method')?.toLowerCase() === 'auth.getmobilesession';
const lastfmAccountOf = (request: FastifyRequest) => (isLastfmSignIn(request) ? requestParams(request).get('username') : undefined);
/** Operations that confirm the caller's password: a stolen token must not buy unlimited guesses at it. */
/** Maloja's writes with the key: a scrobble, a deletion. */
const MALOJA_WRITES = new Set(['/apis/mlj_1/newscrobble', '/apis/mlj_1/delete_scrobble']);
const PASSWORD_CONFIRMATIONS = new Set(['/xrpc/app.svc.actor.changePassword', '/xrpc/app.svc.actor.deleteAccount']);
const callerOf = async (request: FastifyRequest, accountOf: AccountOf) => {
  const credential = authorizationOf(request);
  return credential && (await accountOf(credential))?.handle;
};
/** Every Subsonic request signs in: `u` with one of the user's API keys (`apiKey` alone names no account). */
const subsonicAccountOf = (request: FastifyRequest) => requestSubsonicParams(request).get('u');

function protocolOf(url: string): Protocol {
  if (url.startsWith('/1/')) return 'listenbrainz';
  if (url === '/2.0' || url.startsWith('/2.0/')) return 'lastfm';
  if (url.startsWith('/rest/')) return 'subsonic';
  if (url === '/np_1.2' || url === '/protocol_1.2') return 'audioscrobbler';
  if (url.startsWith('/apis/mlj_1/')) return 'maloja';
  return 'xrpc';
}

/** The budgets a route spends, from its method and path; null for routes outside every limit. */
function planFor(route: RouteOptions): RoutePlan | null {
  const url = route.url;
  const methods = [route.method].flat();
  if (UNLIMITED_PATHS.has(url) || methods.includes('OPTIONS')) return null;
  const protocol = protocolOf(url);
  const post = methods.includes('POST');
  if (protocol === 'lastfm') return { protocol, spend: 'lastfm', credential: lastfmCredentialOf, account: lastfmAccountOf };
  if (route.constraints?.audioscrobblerHandshake) return { protocol: 'audioscrobbler', spend: 'signin', account: paramOf('u') };
  if (post && url === '/auth/login') return { protocol, spend: 'signin', account: identifierOf };
  if (post && (url === '/api/auth' || url === '/api/auth/')) return { protocol, spend: 'signin', account: paramOf('identifier') };
  if (post && url === '/auth/signup') return { protocol, spend: 'signup' };
  if (post && PASSWORD_CONFIRMATIONS.has(url)) return { protocol, spend: 'signin', account: callerOf };
  // Every ListenBrainz POST is a write with the user's token: listens, deletions, feedback, latest-import.
  if (post && (protocol === 'listenbrainz' || url === '/xrpc/app.svc.scrobble.createScrobble')) {
    return { protocol, spend: 'submission', credential: authorizationOf };
  }
  if (post && protocol === 'audioscrobbler') return { protocol, spend: 'submission', credential: audioscrobblerSessionOf };
  if (post && MALOJA_WRITES.has(url)) return { protocol, spend: 'submission', credential: malojaCredentialOf };
  // A media server's webhooks (in XRPC's error shape) spend the key owner's submissions like a scrobbler's.
  if (post && url.startsWith(`${MEDIA_SERVERS_PREFIX}/`)) return { protocol, spend: 'submission', credential: mediaServerCredentialOf };
  if (protocol === 'subsonic') return { protocol, spend: 'read', account: subsonicAccountOf };
  if (methods.includes('GET') || methods.includes('HEAD')) return { protocol, spend: 'read' };
  return null;
}

/** The 429 in the protocol's own error shape; Retry-After is already on the reply. */
function refusal(protocol: Protocol, budget: BudgetName, retryAfterSeconds: number): Error {
  const message = `Rate limit exceeded, retry in ${retryAfterSeconds} seconds`;
  // Subsonic has no code for a rate limit: a locked account is refused as a wrong password (40),
  // which clients answer by asking for the password rather than by retrying into a longer lockout.
  if (protocol === 'subsonic' && budget === 'signinFailures') {
    return new LibraryError('WrongCredentials', `Too many failed sign-ins to this account from this address; retry in ${retryAfterSeconds} seconds`);
  }
  switch (protocol) {
    case 'xrpc':
    case 'listenbrainz':
      return new XrpcError(429, 'RateLimitExceeded', message, retryAfterSeconds);
    case 'lastfm':
      return rateLimitExceeded();
    case 'maloja':
      return malojaRateLimitExceeded(retryAfterSeconds);
    case 'audioscrobbler':
    case 'subsonic':
      return Object.assign(new Error(message), { statusCode: 429 });
  }
}

type Counted = Extract<Spent, { isAllowed: false }>;

/** The standard headers, and ListenBrainz's own on its routes (Reset there is a Unix time, Reset-In the seconds left). */
function sendBudgetHeaders(reply: FastifyReply, protocol: Protocol, spent: Counted): void {
  const resetIn = spent.ttlInSeconds;
  reply.header('x-ratelimit-limit', spent.max).header('x-ratelimit-remaining', spent.isExceeded ? 0 : spent.remaining);
  if (protocol === 'listenbrainz') {
    reply.header('x-ratelimit-reset-in', resetIn).header('x-ratelimit-reset', Math.ceil(Date.now() / 1000) + resetIn);
  } else {
    reply.header('x-ratelimit-reset', resetIn);
  }
  if (spent.isExceeded) reply.header('retry-after', resetIn);
}

/** A sign-in refused (401 or 403, in every protocol that signs in) counts against the account. */
const signInFailed = (reply: FastifyReply) => reply.statusCode === 401 || reply.statusCode === 403;

class RouteLimits {
  /** The key each limiter's keyGenerator reads: set just before the limiter is called. */
  private readonly keys = new WeakMap<FastifyRequest, string>();
  /** The sign-in failures key of a request that names an account, for its response to count. */
  private readonly failureKeys = new WeakMap<FastifyRequest, string>();
  budgets: Budgets | undefined;

  constructor(
    private readonly limits: RateLimitConfig,
    private readonly accountOf: AccountOf,
  ) {}

  createBudgets(app: FastifyInstance): void {
    const keyGenerator = (request: FastifyRequest) => this.keys.get(request)!;
    // skipOnError: a store that fails (Redis gone) lets requests through rather than failing them.
    const budget = (max: number, timeWindow: number, continueExceeding = false) => {
      const options: RateLimitOptions = { max, timeWindow, keyGenerator, skipOnError: true, continueExceeding };
      return app.createRateLimit(options);
    };
    this.budgets = {
      reads: budget(this.limits.reads, READ_WINDOW_MS),
      submissions: budget(this.limits.submissions, SUBMISSION_WINDOW_MS),
      // A client that keeps trying while refused restarts its window each time: it waits out a whole quiet window.
      signinAttempts: budget(this.limits.signinAttempts, SIGNIN_WINDOW_MS, true),
      signinFailures: budget(this.limits.signinFailures, SIGNIN_WINDOW_MS, true),
    };
  }

  private spend(name: BudgetName, request: FastifyRequest, key: string, increment = true): Promise<Spent> {
    this.keys.set(request, `${name}:${key}`);
    return this.budgets![name](request, { increment });
  }

  /** Spends one unit of a budget; over it, answers 429 through the route's error handler. */
  private async charge(name: BudgetName, plan: RoutePlan, request: FastifyRequest, reply: FastifyReply, key: string): Promise<void> {
    const spent = await this.spend(name, request, key);
    if (spent.isAllowed) return;
    sendBudgetHeaders(reply, plan.protocol, spent);
    if (spent.isExceeded) throw refusal(plan.protocol, name, spent.ttlInSeconds);
  }

  /** The account a credential belongs to, so that all its keys share one budget; the address when it names none. */
  private async submitterKey(plan: RoutePlan, request: FastifyRequest, ip: string): Promise<string> {
    const credential = plan.credential?.(request);
    const owner = credential && (await this.accountOf(credential));
    return owner ? fingerprint(owner.userId) : `ip:${ip}`;
  }

  /** Spends what the route's plan says, before its handler runs. Per IP, every sign-in attempt counts. */
  async chargeRoute(plan: RoutePlan, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const ip = normalizeIP(request.ip);
    if (plan.spend === 'read') return this.charge('reads', plan, request, reply, ip);
    if (plan.spend === 'submission' || plan.spend === 'lastfm') {
      await this.charge('submissions', plan, request, reply, await this.submitterKey(plan, request, ip));
    }
    if (plan.spend === 'signup' || plan.spend === 'signin' || (plan.spend === 'lastfm' && isLastfmSignIn(request))) {
      await this.charge('signinAttempts', plan, request, reply, ip);
    }
  }

  /**
   * Per account (from this IP), only failures count, so others' wrong passwords elsewhere never
   * lock an owner out. A locked account is refused before its password is checked, and the
   * attempt counts too.
   */
  async guardAccount(plan: RoutePlan, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const account = await plan.account?.(request, this.accountOf);
    if (!account) return;
    const key = `${fingerprint(normalizeHandle(account))}:${normalizeIP(request.ip)}`;
    const failures = await this.spend('signinFailures', request, key, false);
    if (!failures.isAllowed && failures.remaining === 0) return this.charge('signinFailures', plan, request, reply, key);
    this.failureKeys.set(request, key);
  }

  /** Counts a refused sign-in against its account, before the answer leaves (so the next attempt sees it). */
  async countSignInOutcome(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = this.failureKeys.get(request);
    if (key !== undefined && (signInFailed(reply) || isSignInRefused(request))) await this.spend('signinFailures', request, key);
  }
}

/**
 * Sign-ins (the account is in the body), Last.fm calls and Audioscrobbler submissions (their key is a
 * form parameter) are charged once the body is parsed; reads and token-keyed submissions before it is read.
 */
const keyInBody = (plan: RoutePlan) => plan.spend !== 'read' && plan.credential !== authorizationOf;

function prepend<T>(hooks: T | T[] | undefined, hook: T): T[] {
  return [hook, ...(hooks === undefined ? [] : ([hooks].flat() as T[]))];
}

/**
 * The budgets of `limits` on every route declared after this call, in this instance or its
 * plugins: @fastify/rate-limit counts them, in Redis when REDIS_URL is set, in memory otherwise.
 * Submissions are counted against the account `accountOf` finds for their credential.
 */
export function registerRateLimits(app: FastifyInstance, limits: RateLimitConfig, accountOf: AccountOf): void {
  if (!limits.enabled) return;
  const routeLimits = new RouteLimits(limits, accountOf);
  const client = limits.redisUrl ? redisClient(limits.redisUrl, app.log) : undefined;
  app.register(fastifyRateLimit, { global: false, store: budgetStore(client?.redis, limits.redisPrefix) });
  app.addHook('onReady', async () => {
    await client?.connect();
    routeLimits.createBudgets(app);
  });
  if (client) app.addHook('onClose', async () => void (await client.redis.quit().catch(() => client.redis.disconnect())));
  app.addHook('onRoute', (route) => {
    const plan = planFor(route);
    if (!plan) return;
    const charge = async (request: FastifyRequest, reply: FastifyReply) => routeLimits.chargeRoute(plan, request, reply);
    // The account named may be in the body: its lock is checked once the body is parsed, after the route's charge.
    if (plan.account) {
      route.preHandler = prepend(route.preHandler, (async (request: FastifyRequest, reply: FastifyReply) =>
        routeLimits.guardAccount(plan, request, reply)) as never);
      route.onSend = prepend(route.onSend, (async (request: FastifyRequest, reply: FastifyReply) => routeLimits.countSignInOutcome(request, reply)) as never);
    }
    if (keyInBody(plan)) route.preHandler = prepend(route.preHandler, charge as never);
    else route.onRequest = prepend(route.onRequest, charge as never);
  });
}
