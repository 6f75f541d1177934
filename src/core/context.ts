import type { Config } from '../toolkit/config.ts';
import type { Database } from '../toolkit/db/index.ts';
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
