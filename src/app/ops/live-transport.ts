/**
 * Carries live events (core/live) between the processes serving one database: Redis pub/sub when
 * REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY over one dedicated session (DATABASE_DIRECT_URL,
 * else DATABASE_URL: LISTEN needs a session of its own, which a transaction pooler such as
 * PgBouncer in transaction mode does not keep), else nothing: the embedded database serves one
 * process, whose streams the bus reaches directly.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AppContext } from '../../core/context.ts';
import type { LiveBus, LiveTransport } from '../../core/live/bus.ts';

/** The NOTIFY channel; one database, one deployment. */
const PG_CHANNEL = 'earshot_live';
const RECONNECT_MS = 2_000;

async function redisTransport(url: string, channel: string, bus: LiveBus): Promise<LiveTransport> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 1 };
  const subscriber = new Redis(url, options);
  const publisher = new Redis(url, { ...options, enableOfflineQueue: false });
  // ioredis reconnects and subscribes again by itself; while Redis is away, publish falls back to this process (bus.ts).
  subscriber.on('error', () => {});
  publisher.on('error', () => {});
  subscriber.on('message', (_channel: string, text: string) => bus.deliver(text));
  await Promise.all([subscriber.connect(), publisher.connect()]);
  await subscriber.subscribe(channel);
  return {
    publish: async (text) => void (await publisher.publish(channel, text)),
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}

async function postgresTransport(url: string, bus: LiveBus): Promise<LiveTransport> {
  let client: pg.Client | null = null;
  let closed = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    const retry = () => {
      if (closed || client !== next) return;
      client = null;
      setTimeout(() => void connect().catch(retry), RECONNECT_MS).unref();
    };
    next.on('notification', (message) => message.payload !== undefined && bus.deliver(message.payload));
    next.on('error', retry);
    next.on('end', retry);
    client = next;
    await next.connect();
    await next.query(`listen ${PG_CHANNEL}`);
  };
  await connect();
  return {
    async publish(text) {
      if (!client) throw new Error('the live events session is reconnecting');
      await client.query('select pg_notify($1, $2)', [PG_CHANNEL, text]);
    },
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

/** The transport this configuration calls for, already listening; null for the embedded database. */
export async function startLiveTransport(ctx: AppContext, bus: LiveBus): Promise<LiveTransport | null> {
  const { redisUrl, redisPrefix } = ctx.config.rateLimits;
  if (redisUrl) return redisTransport(redisUrl, `${redisPrefix}live`, bus);
  const url = ctx.config.databaseDirectUrl ?? ctx.config.databaseUrl;
  return url ? postgresTransport(url, bus) : null;
}
