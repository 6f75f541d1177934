import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import type { ServerKeys } from './auth/keys.ts';
import type { Metrics } from './ops/metrics.ts';

/** What every request handler may use; built once at start-up. */
export interface AppContext {
  config: Config;
  db: Database;
  keys: ServerKeys;
  /** The process's metrics, shared by its hosts (src/ops). */
  metrics: Metrics;
}
