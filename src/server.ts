import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type StorageTarget } from './db/index.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { deriveKeys, loadServerSecret } from './auth/index.ts';
import { sealLegacyAudioscrobblerDigests } from './auth/audioscrobbler-digest.ts';
import { buildApiServer, operations, routes } from './api/index.ts';
import { buildScrobblerServer } from './scrobbling/index.ts';
import { settleDetached } from './background.ts';
import { Metrics } from './ops/metrics.ts';
import { startMetricsListener } from './ops/metrics-listener.ts';

export type HostName = 'api' | 'scrobbler';

export function storageTargetFor(config: Config): StorageTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: `${config.dataDir}/db` };
}

export interface OwnedAppContext extends AppContext {
  /** Closes the database and releases the data directory. */
  close(): Promise<void>;
}

/** Opens storage for a long-running process (server or CLI command) and derives its keys. */
export async function openAppContext(config: Config, target: StorageTarget = storageTargetFor(config)): Promise<OwnedAppContext> {
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
  close(): Promise<void>;
}

function listeningUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function buildHost(ctx: AppContext, host: HostName, logger: boolean): FastifyInstance {
  const options = { logger, timeouts: ctx.config.httpTimeouts, trustProxy: ctx.config.trustProxy };
  return host === 'api' ? buildApiServer(ctx, { operations, routes }, options) : buildScrobblerServer(ctx, options);
}

/** Starts the requested hosts on the configured ports; the caller owns the context's database. */
export async function startHosts(ctx: AppContext, hosts: readonly HostName[], logger: boolean): Promise<RunningHosts> {
  const started: FastifyInstance[] = [];
  const urls: RunningHosts['urls'] = {};
  try {
    for (const host of hosts) {
      const app = buildHost(ctx, host, logger);
      started.push(app);
      await app.listen({ host: ctx.config.host, port: host === 'api' ? ctx.config.port : ctx.config.scrobblerPort });
      urls[host] = listeningUrl(app, ctx.config.host);
    }
    const metrics = await startMetricsListener(ctx);
    if (metrics) {
      started.push(metrics);
      urls.metrics = listeningUrl(metrics, ctx.config.metrics.host);
    }
  } catch (error) {
    await Promise.all(started.map((app) => app.close()));
    throw error;
  }
  return {
    urls,
    async close() {
      await Promise.all(started.map((app) => app.close()));
      // Work requests started and left running (a first file host sync) ends before the database does.
      await settleDetached();
    },
  };
}
