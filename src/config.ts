import path from 'node:path';

export type UnmatchedScrobblePolicy = 'store' | 'skip';
export type SignupPolicy = 'open' | 'closed';

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
  };
}
