import path from 'node:path';

export type UnmatchedScrobblePolicy = 'store' | 'skip';
export type SignupPolicy = 'open' | 'closed';

/** How long a client may take over each part of an HTTP exchange before its connection is closed. */
export interface HttpTimeouts {
  /** From connecting to the end of the request headers. */
  headersMs: number;
  /** From connecting to the end of the request body. */
  requestMs: number;
  /** Between requests on a kept-alive connection. */
  idleMs: number;
}

export interface Config {
  host: string;
  port: number;
  scrobblerPort: number;
  /** Public URL of the API, used in links and the OpenAPI document. */
  publicUrl: string;
  /** Public URL of the scrobble-submission host. */
  scrobblerPublicUrl: string;
  dataDir: string;
  /** When set, a PostgreSQL server is used instead of the embedded database. */
  databaseUrl: string | undefined;
  /** Overrides the signing secret otherwise kept in `<dataDir>/secret.key`. */
  secret: string | undefined;
  signup: SignupPolicy;
  unmatchedScrobbles: UnmatchedScrobblePolicy;
  httpTimeouts: HttpTimeouts;
  /** The local music folder (EARSHOT_MUSIC_DIR), absolute; whether it exists is checked when a scan starts. */
  musicDir: string | undefined;
  /** Minutes between the server's incremental rescans of the music folder; 0: only at start. */
  scanIntervalMinutes: number;
}

export class ConfigError extends Error {}

function integerFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), got "${raw}"`);
  }
  return value;
}

function millisecondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a whole number of milliseconds above 0, got "${raw}"`);
  return value;
}

function minutesFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  // A week at most: setTimeout cannot wait longer than ~24.8 days, and no one needs more.
  if (!Number.isInteger(value) || value < 0 || value > 10_080) throw new ConfigError(`${name} must be a whole number of minutes from 0 to 10080, got "${raw}"`);
  return value;
}

/** Generous enough for a 10 MB submission over a slow link, short enough that idle or trickling connections are not held for minutes. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000 };

function httpTimeoutsFrom(env: NodeJS.ProcessEnv): HttpTimeouts {
  const timeouts = {
    headersMs: millisecondsFrom(env, 'EARSHOT_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.headersMs),
    requestMs: millisecondsFrom(env, 'EARSHOT_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.requestMs),
    idleMs: millisecondsFrom(env, 'EARSHOT_IDLE_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.idleMs),
  };
  // Node refuses a headers timeout longer than the request timeout, which includes the headers.
  if (timeouts.headersMs > timeouts.requestMs) throw new ConfigError('EARSHOT_HEADERS_TIMEOUT_MS must not exceed EARSHOT_REQUEST_TIMEOUT_MS');
  return timeouts;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = integerFrom(env, 'PORT', 8000);
  const scrobblerPort = integerFrom(env, 'SCROBBLER_PORT', port === 0 ? 0 : port + 1);
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    port,
    scrobblerPort,
    publicUrl: (env.PUBLIC_URL || `http://${displayHost}:${port}`).replace(/\/+$/, ''),
    scrobblerPublicUrl: (env.SCROBBLER_PUBLIC_URL || `http://${displayHost}:${scrobblerPort}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.EARSHOT_DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    secret: env.EARSHOT_SECRET || undefined,
    signup: oneOf(env, 'EARSHOT_SIGNUP', ['open', 'closed'] as const, 'open'),
    unmatchedScrobbles: oneOf(env, 'UNMATCHED_SCROBBLES', ['store', 'skip'] as const, 'store'),
    httpTimeouts: httpTimeoutsFrom(env),
    musicDir: env.EARSHOT_MUSIC_DIR ? path.resolve(env.EARSHOT_MUSIC_DIR) : undefined,
    scanIntervalMinutes: minutesFrom(env, 'EARSHOT_SCAN_INTERVAL_MINUTES', 60),
  };
}
