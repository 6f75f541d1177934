/// <reference path="./rate-limit-stores.d.ts" />
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { Redis } from 'ioredis';
import { ConfigError } from '../../toolkit/config-error.ts';

/** Clients the in-memory store remembers per budget; the least recently seen is forgotten first. */
const LOCAL_ENTRIES = 100_000;

type Options = { continueExceeding?: boolean };

/**
 * @fastify/rate-limit's own stores, keyed by the configured prefix and the budget's key alone: the
 * plugin's stores would add the route to the key, which budgets shared by several routes do not have.
 */
export function budgetStore(redis: Redis | undefined, prefix: string): FastifyRateLimitStoreCtor {
  const inner = (options: Options) =>
    redis ? new RedisStore(Boolean(options.continueExceeding), false, redis, prefix) : new LocalStore(Boolean(options.continueExceeding), false, LOCAL_ENTRIES);
  class BudgetStore implements FastifyRateLimitStore {
    private readonly store: LocalStore | RedisStore;

    constructor(options: Options) {
      this.store = inner(options);
    }

    incr: FastifyRateLimitStore['incr'] = (...args) => this.store.incr(...args);
    read: FastifyRateLimitStore['incr'] = (...args) => this.store.read(...args);
    // The plugin hands each limiter's merged options, typed as a route's.
    child: FastifyRateLimitStore['child'] = (options) => new BudgetStore(options as Options);
  }
  return BudgetStore as FastifyRateLimitStoreCtor;
}

/** The URL without its password, for messages. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/**
 * A client that connects when `connect` is called. Commands fail at once while Redis is away
 * (no offline queue): the limits then let requests through, logged, rather than hold them.
 */
export function redisClient(url: string, log: FastifyBaseLogger): { redis: Redis; connect(): Promise<void> } {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastError: Error | undefined;
  let reported = false;
  redis.on('error', (error: Error) => {
    lastError = error;
    if (redis.status === 'ready' || reported) return;
    reported = true;
    log.warn(`rate limits: Redis at ${shownUrl(url)} is unreachable (${error.message}); requests are let through until it is back`);
  });
  redis.on('ready', () => {
    reported = false;
  });
  return {
    redis,
    async connect() {
      reported = true;
      try {
        await redis.connect();
        await redis.ping();
      } catch (error) {
        redis.disconnect();
        const cause = lastError?.message || (error as Error).message;
        throw new ConfigError(`REDIS_URL: cannot reach Redis at ${shownUrl(url)} (${cause}); start it, or unset REDIS_URL to keep rate limits in this process`);
      }
      reported = false;
    },
  };
}
