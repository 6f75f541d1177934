import type { Config } from '../toolkit/config.ts';
import type { Database } from '../toolkit/db/index.ts';
import type { Metrics } from './ops/metrics.ts';

/** What every request handler may use; built once at start-up. */
export interface AppContext {
  config: Config;
  db: Database;
  keys: ServerKeys;
  /** The process's metrics, shared by its hosts (src/core/ops/metrics.ts; src/app/ops serves them). */
  metrics: Metrics;
}

/**
 * Purpose-bound keys derived from one server secret (deriveKeys, src/core/auth/keys.ts). Declared beside the
 * context that carries them, so auth's modules can take the context without the context importing auth.
 */
export interface ServerKeys {
  jwt: Uint8Array;
  apiKeySharedSecret: Uint8Array;
  encryption: Uint8Array;
  /** Signs the `state` of OAuth authorizations sent to providers. */
  oauthState: Uint8Array;
  /** Signs the web player's short-lived stream URLs (library/signed-stream.ts). */
  streamUrl: Uint8Array;
}
