import { ConfigError } from './config-error.ts';

/** How many requests each budget allows in its window (the windows are fixed: rate-limits.ts). */
export interface RateLimitConfig {
  /** False when EARSHOT_RATE_LIMITS=off: no budget is counted and no rate-limit header is sent. */
  enabled: boolean;
  /** Failed sign-ins per account from one IP address in 15 minutes (EARSHOT_RATE_LIMIT_SIGNIN). */
  signinFailures: number;
  /** Sign-in and sign-up attempts per IP address in 15 minutes (EARSHOT_RATE_LIMIT_SIGNIN_IP). */
  signinAttempts: number;
  /** Submissions (and Last.fm calls) per account, all its keys, tokens and sessions together, in 5 minutes (EARSHOT_RATE_LIMIT_SUBMISSIONS). */
  submissions: number;
  /** Reads per IP address in a minute (EARSHOT_RATE_LIMIT_READS). */
  reads: number;
  /** When set, budgets live in this Redis and are shared by every process using it (REDIS_URL). */
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so several servers (or tests) can share one Redis (EARSHOT_REDIS_PREFIX). */
  redisPrefix: string;
}

/** Which browser origins may call the API from their pages (EARSHOT_CORS_ORIGINS). */
export interface CorsConfig {
  /** `*` listed: any origin may read, without credentials. */
  anyOrigin: boolean;
  /** Origins that may also send credentials (cookies, Authorization), e.g. `https://app.example.org`. */
  credentialedOrigins: readonly string[];
}

export const DEFAULT_RATE_LIMITS: Omit<RateLimitConfig, 'redisUrl'> = {
  enabled: true,
  signinFailures: 10,
  signinAttempts: 30,
  submissions: 1500,
  reads: 600,
  redisPrefix: 'earshot:',
};

function countFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000) throw new ConfigError(`${name} must be a whole number from 1 to 1000000, got "${raw}"`);
  return value;
}

function switchFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got "${raw}"`);
}

function redisUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  // The URL may hold a password: the message names the rule, not the value.
  if (!/^rediss?:\/\/[^/?#]/.test(raw)) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  return raw;
}

export function rateLimitsFrom(env: NodeJS.ProcessEnv): RateLimitConfig {
  return {
    enabled: switchFrom(env, 'EARSHOT_RATE_LIMITS'),
    signinFailures: countFrom(env, 'EARSHOT_RATE_LIMIT_SIGNIN', DEFAULT_RATE_LIMITS.signinFailures),
    signinAttempts: countFrom(env, 'EARSHOT_RATE_LIMIT_SIGNIN_IP', DEFAULT_RATE_LIMITS.signinAttempts),
    submissions: countFrom(env, 'EARSHOT_RATE_LIMIT_SUBMISSIONS', DEFAULT_RATE_LIMITS.submissions),
    reads: countFrom(env, 'EARSHOT_RATE_LIMIT_READS', DEFAULT_RATE_LIMITS.reads),
    redisUrl: redisUrlFrom(env),
    redisPrefix: env.EARSHOT_REDIS_PREFIX || DEFAULT_RATE_LIMITS.redisPrefix,
  };
}

/** An origin as browsers send it: scheme, host and port only. */
function originFrom(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`EARSHOT_CORS_ORIGINS: "${raw}" is not an origin such as https://app.example.org`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== raw.replace(/\/$/, '')) {
    throw new ConfigError(`EARSHOT_CORS_ORIGINS: "${raw}" is not an origin such as https://app.example.org (scheme, host and port, no path)`);
  }
  return url.origin;
}

/** `*` (the default) lets any origin read without credentials; listed origins may send credentials too. */
export function corsFrom(env: NodeJS.ProcessEnv): CorsConfig {
  const entries = (env.EARSHOT_CORS_ORIGINS || '*')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return {
    anyOrigin: entries.includes('*'),
    credentialedOrigins: entries.filter((entry) => entry !== '*').map(originFrom),
  };
}
