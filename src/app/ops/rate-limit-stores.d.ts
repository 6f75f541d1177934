// The stores @fastify/rate-limit ships (store/*.js, not typed by the package): ops/rate-limit-store.ts names their keys.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  export default class LocalStore implements Pick<FastifyRateLimitStore, 'incr'> {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr: FastifyRateLimitStore['incr'];
    read: FastifyRateLimitStore['incr'];
  }
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  export default class RedisStore implements Pick<FastifyRateLimitStore, 'incr'> {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string);
    incr: FastifyRateLimitStore['incr'];
    read: FastifyRateLimitStore['incr'];
  }
}
