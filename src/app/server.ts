import type { FastifyInstance } from 'fastify';
import type { Config } from '../toolkit/config.ts';
import type { AppContext } from '../core/context.ts';
import { openDatabase, type StorageTarget } from '../toolkit/db/index.ts';
import { lockDataDir } from '../toolkit/db/data-dir-lock.ts';
import { deriveKeys, loadServerSecret } from '../core/auth/index.ts';
import { sealLegacyAudioscrobblerDigests } from '../core/auth/audioscrobbler-digest.ts';
import { buildApiServer } from './api-host.ts';
import type { HostName } from './host-name.ts';
import { operations, routes } from './registry.ts';
import { buildScrobblerServer } from './scrobbler-host.ts';
import { settleDetached } from '../toolkit/background.ts';
import { Metrics } from '../core/ops/metrics.ts';
import { startMetricsListener } from './ops/metrics-listener.ts';
import { listenFailure, storageFailure } from '../toolkit/operating-errors.ts';
import { liveBusOf } from '../core/live/bus.ts';
import { startLiveTransport } from './ops/live-transport.ts';

/** The variable that sets each host's port (config.ts), named when the port cannot be had. */
const PORT_VARIABLE: Record<HostName, string> = { api: 'PORT', scrobbler: 'SCROBBLER_PORT' };

export function storageTargetFor(config: Config): StorageTarget {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: `${config.dataDir}/db` };
}

export interface OwnedAppContext extends AppContext {
  /** Closes the database and releases the data directory. */
  close(): Promise<void>;
}

/** Opens storage for a long-running process (server or CLI command) and derives its keys. */
export async function openAppContext(config: Config, target: StorageTarget = storageTargetFor(config)): Promise<OwnedAppContext> {
  return openStorage(config, target).catch((error: unknown) =>
    Promise.reject(storageFailure(error, config.dataDir, target.kind === 'postgres' ? target.url : undefined)),
  );
}

async function openStorage(config: Config, target: StorageTarget): Promise<OwnedAppContext> {
  const keys = deriveKeys(loadServerSecret(config.secret, config.dataDir));
  const unlock = target.kind === 'pglite' && target.dataDir ? lockDataDir(target.dataDir) : () => {};
  try {
    const db = await openDatabase(target);
    await sealLegacyAudioscrobblerDigests(db, keys.encryption).catch(async (error: unknown) => {
      await db.destroy();
      throw error;
    });
    return {
      config,
      db,
      keys,
      metrics: new Metrics(db),
      async close() {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export interface RunningHosts {
  /** `metrics`: the metrics listener, when EARSHOT_METRICS_PORT gives it one. */
  urls: Partial<Record<HostName | 'metrics', string>>;
  /** Client connections open now, idle or not. */
  connections(): Promise<number>;
  /**
   * Stops accepting, lets requests in flight finish for up to the configured shutdown timeout
   * (idle kept-alive connections close at once), then closes whatever connection is left.
   */
  close(): Promise<void>;
}

function listeningUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function buildHost(ctx: AppContext, host: HostName, logger: boolean): FastifyInstance {
  const publicUrl = host === 'api' ? ctx.config.publicUrl : ctx.config.scrobblerPublicUrl;
  const options = { logger: logger && ctx.config.logLevel, timeouts: ctx.config.httpTimeouts, trustProxy: ctx.config.trustProxy, publicUrl };
  return host === 'api' ? buildApiServer(ctx, { operations, routes }, options) : buildScrobblerServer(ctx, options);
}

/** Starts the requested hosts on the configured ports; the caller owns the context's database. */
export async function startHosts(ctx: AppContext, hosts: readonly HostName[], logger: boolean): Promise<RunningHosts> {
  const started: FastifyInstance[] = [];
  const urls: RunningHosts['urls'] = {};
  // Live events reach the streams of every process on this database (ops/live-transport.ts).
  const bus = liveBusOf(ctx);
  const transport = await startLiveTransport(ctx, bus);
  bus.useTransport(transport);
  try {
    for (const host of hosts) {
      const app = buildHost(ctx, host, logger);
      started.push(app);
      const port = host === 'api' ? ctx.config.port : ctx.config.scrobblerPort;
      await app
        .listen({ host: ctx.config.host, port })
        .catch((error: unknown) => Promise.reject(listenFailure(error, ctx.config.host, port, PORT_VARIABLE[host])));
      urls[host] = listeningUrl(app, ctx.config.host);
    }
    const metrics = await startMetricsListener(ctx);
    if (metrics) {
      started.push(metrics);
      urls.metrics = listeningUrl(metrics, ctx.config.metrics.host);
    }
  } catch (error) {
    await Promise.all(started.map((app) => app.close()));
    bus.useTransport(null);
    await transport?.close();
    throw error;
  }
  return {
    urls,
    async connections() {
      const counts = await Promise.all(
        started.map((app) => new Promise<number>((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)))),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    },
    async close() {
      const deadline = setTimeout(() => started.forEach((app) => app.server.closeAllConnections()), ctx.config.shutdownTimeoutMs);
      await Promise.all(started.map((app) => app.close()));
      clearTimeout(deadline);
      // Work requests started and left running (a first file host sync) ends before the database does.
      await settleDetached();
      bus.useTransport(null);
      await transport?.close();
    },
  };
}
