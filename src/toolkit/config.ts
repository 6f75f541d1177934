import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { corsFrom, rateLimitsFrom, type CorsConfig, type RateLimitConfig } from './limits-config.ts';

export type UnmatchedScrobblePolicy = 'store' | 'skip';
export type SignupPolicy = 'open' | 'closed';

/** pino's levels, most severe first; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
  /** Which peers' X-Forwarded-For is believed (EARSHOT_TRUST_PROXY): the client address rate limits and logs use. */
  trustProxy: TrustProxy;
  /** The local music folder (EARSHOT_MUSIC_DIR), absolute; whether it exists is checked when a scan starts. */
  musicDir: string | undefined;
  /** Minutes between the server's incremental rescans of the music folder; 0: only at start. */
  scanIntervalMinutes: number;
  /** Third-party providers; one without a client id is off (providers/registry.ts). */
  providers: ProvidersConfig;
  /** Who may read /metrics and where it is served (src/app/ops). */
  metrics: MetricsConfig;
  /** Budgets for sign-ins, submissions and reads (ops/rate-limits.ts). */
  rateLimits: RateLimitConfig;
  /** Which browser origins may call the API (ops/cors.ts). */
  cors: CorsConfig;
  /** The HTTP hosts' request log (LOG_LEVEL). */
  logLevel: LogLevel;
  /** How long a stopping server waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** Filling missing MBIDs, genres, covers and artist pictures from MusicBrainz, the Cover Art Archive and Deezer (catalog/enrich). */
  enrichment: EnrichmentConfig;
  /** AVATAR_PRIVATE_ADDRESSES=allow: avatars may be fetched from private, loopback and link-local addresses (profiles/avatar-fetch.ts). */
  avatarPrivateAddresses: boolean;
  /** Relaying plays out to other scrobbling services (core/relay). */
  relay: RelayConfig;
  /** Users' webhooks (core/webhooks). */
  webhooks: WebhooksConfig;
  /**
   * DATABASE_DIRECT_URL: a direct (or session-pooled) connection to the same PostgreSQL, for the
   * one session that LISTENs for live events when DATABASE_URL goes through a transaction pooler.
   */
  databaseDirectUrl: string | undefined;
  /** Pulling plays in from other scrobbling services (core/sync). */
  sync: SyncConfig;
  /** EARSHOT_RESPONSE_CACHE_MB: MiB of answers kept by the API host's cacheable queries (adapters/http/response-cache.ts); 0: none. */
  responseCacheMiB: number;
}

export interface WebhooksConfig {
  /** EARSHOT_WEBHOOKS: whether a serving process runs the webhook sender. */
  enabled: boolean;
  /** EARSHOT_WEBHOOKS_ALLOW_PRIVATE=true: webhook URLs may point at loopback and private addresses (a receiver on the operator's own network). */
  allowPrivate: boolean;
}

export interface SyncConfig {
  /** EARSHOT_SYNC: whether a serving process runs the sync job (and starts a run when a source is added or run now). */
  enabled: boolean;
  /** EARSHOT_SYNC_INTERVAL_MINUTES: minutes between a source's passes for new plays. */
  intervalMinutes: number;
  /** LISTENBRAINZ_URL: the ListenBrainz a source is pulled from when it names no server. */
  listenbrainzUrl: string;
  /** EARSHOT_SYNC_POLL_SECONDS: how often a serving process looks for sources due. */
  pollSeconds: number;
  /** EARSHOT_SYNC_LEASE_SECONDS: how long a runner holds a source without committing a page before another process may take it over. */
  leaseSeconds: number;
}

/** The protocols plays are relayed out over (providers/listenbrainz, providers/lastfm, providers/maloja). */
export type RelayProviderName = 'listenbrainz' | 'lastfm' | 'maloja';

/** The Last.fm API application the operator registered: users link their accounts to it. */
export interface LastfmRelayConfig {
  apiKey: string;
  secret: string;
  /** The API endpoint, ending in /2.0/. */
  apiUrl: string;
  /** The web authorisation page the browser is sent to. */
  authUrl: string;
}

export interface RelayConfig {
  /** Off (undefined) until LASTFM_RELAY_API_KEY and LASTFM_RELAY_SECRET are set. */
  lastfm: LastfmRelayConfig | undefined;
  /** EARSHOT_RELAY: whether a serving process runs the relay sender. */
  enabled: boolean;
  /** EARSHOT_RELAY_POLL_SECONDS: how often a serving process looks for plays to relay. */
  pollSeconds: number;
  /** EARSHOT_RELAY_LEASE_SECONDS: how long a claimed batch is its sender's; after that (the sender died mid-batch) another sends it again. */
  leaseSeconds: number;
}

/** Metadata services Earshot reads without an account (providers/musicbrainz, providers/coverart, providers/deezer). */
export type MetadataProviderName = 'musicbrainz' | 'coverart' | 'deezer';

export interface EnrichmentConfig {
  /** EARSHOT_ENRICH: whether a serving process runs the enrichment job. */
  enabled: boolean;
  /** MusicBrainz's base (no trailing slash); /ws/2 is appended. */
  musicbrainzUrl: string;
  coverartUrl: string;
  /** Deezer's public API, for artist pictures; empty (DEEZER_URL set to nothing) when switched off. */
  deezerUrl: string;
  /** How MusicBrainz can reach whoever runs this server, for the User-Agent it asks for. */
  contact: string;
}

export interface MetricsConfig {
  /** When set, /metrics answers only `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** When set, /metrics is served on its own listener at `host`:`port` instead of on the public hosts. */
  port: number | undefined;
  host: string;
}

export type ProviderName = 'filehostA' | 'filehostB' | 'musicstream';
export const PROVIDER_NAMES: readonly ProviderName[] = ['filehostA', 'filehostB', 'musicstream'];

/** Where a provider is reached and the OAuth client Earshot is registered as there. */
export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  /** The browser is sent here to grant access. */
  authorizeUrl: string;
  tokenUrl: string;
  /** The provider's API base (no trailing slash). */
  apiUrl: string;
  /** Where file bytes are downloaded from, when the host serves them from another base (filehostB). */
  contentUrl: string;
}

export interface ProvidersConfig {
  filehostA: ProviderConfig | undefined;
  filehostB: ProviderConfig | undefined;
  musicstream: ProviderConfig | undefined;
  /** Seconds between polls of each connected streaming account's recently played list. */
  pollSeconds: number;
  /** Minutes between incremental syncs of each connected file host; 0: only on connect and on demand. */
  syncMinutes: number;
}

function integerFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), got "${raw}"`);
  }
  return value;
}

/**
 * DATABASE_URL, checked as the PostgreSQL client parses it (relative to postgres://base), so a
 * malformed one (a port above 65535, say) stops the start with a line rather than a stack. The value
 * is not repeated: it may hold a password.
 */
function databaseUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.DATABASE_URL;
  if (!raw) return undefined;
  try {
    new URL(raw, 'postgres://base');
  } catch {
    throw new ConfigError(
      'DATABASE_URL is not a valid URL: write it as postgres://user:password@host:5432/database (port 0-65535, special characters in the password percent-encoded)',
    );
  }
  return raw;
}

function millisecondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a whole number of milliseconds above 0, got "${raw}"`);
  return value;
}

/** A whole number of `unit` in min…max from the environment, or the fallback when unset. */
function wholeNumberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, unit: string, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ConfigError(`${name} must be a whole number of ${unit} from ${min} to ${max}, got "${raw}"`);
  return value;
}

// A week at most: setTimeout cannot wait longer than ~24.8 days, and no one needs more.
const minutesFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number) => wholeNumberFrom(env, name, fallback, 'minutes', 0, 10_080);

/** Generous enough for a 10 MB submission over a slow link, short enough that idle or trickling connections are not held for minutes. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000 };

/** Fastify's trustProxy: off, every peer, the nearest N hops, or the listed addresses and CIDR ranges. */
export type TrustProxy = boolean | number | string[];

function trustProxyFrom(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.EARSHOT_TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const addresses = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (addresses.some((address) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(address))) {
    throw new ConfigError(`EARSHOT_TRUST_PROXY must be true, a number of proxy hops, or comma-separated proxy addresses (CIDR allowed), got "${raw}"`);
  }
  return addresses;
}

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

/** The providers' public endpoints; each can be moved (a self-hosted compatible service, or a local fake). */
const PROVIDER_DEFAULTS: Record<ProviderName, Omit<ProviderConfig, 'clientId' | 'clientSecret'>> = {
  filehostA: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    apiUrl: 'https://www.googleapis.com/drive/v3',
    contentUrl: 'https://www.googleapis.com/drive/v3',
  },
  filehostB: {
    authorizeUrl: 'https://www.dropbox.com/oauth2/authorize',
    tokenUrl: 'https://api.dropboxapi.com/oauth2/token',
    apiUrl: 'https://api.dropboxapi.com/2',
    contentUrl: 'https://content.dropboxapi.com/2',
  },
  musicstream: {
    authorizeUrl: 'https://accounts.spotify.com/authorize',
    tokenUrl: 'https://accounts.spotify.com/api/token',
    apiUrl: 'https://api.spotify.com/v1',
    contentUrl: 'https://api.spotify.com/v1',
  },
};

const ENV_PREFIX: Record<ProviderName, string> = { filehostA: 'FILEHOSTA', filehostB: 'FILEHOSTB', musicstream: 'MUSICSTREAM' };

function urlFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A provider is on when its client id is set; then its secret must be set too. */
function providerFrom(env: NodeJS.ProcessEnv, provider: ProviderName): ProviderConfig | undefined {
  const prefix = ENV_PREFIX[provider];
  const clientId = env[`${prefix}_CLIENT_ID`];
  if (!clientId) return undefined;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`];
  if (!clientSecret) throw new ConfigError(`${prefix}_CLIENT_ID is set but ${prefix}_CLIENT_SECRET is not: set both to turn ${provider} on`);
  const defaults = PROVIDER_DEFAULTS[provider];
  const apiUrl = urlFrom(env, `${prefix}_API_URL`, defaults.apiUrl);
  return {
    clientId,
    clientSecret,
    authorizeUrl: urlFrom(env, `${prefix}_AUTHORIZE_URL`, defaults.authorizeUrl),
    tokenUrl: urlFrom(env, `${prefix}_TOKEN_URL`, defaults.tokenUrl),
    apiUrl,
    // A moved API (a compatible service, a local fake) serves its downloads too unless told otherwise.
    contentUrl: urlFrom(env, `${prefix}_CONTENT_URL`, env[`${prefix}_API_URL`] ? apiUrl : defaults.contentUrl),
  };
}

const secondsFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number) => wholeNumberFrom(env, name, fallback, 'seconds', 10, 86_400);
/** A background sender's poll interval or lease: short ones are for tests and demos, which watch a killed process's work taken over. */
const jobSecondsFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number) => wholeNumberFrom(env, name, fallback, 'seconds', 1, 86_400);

function providersFrom(env: NodeJS.ProcessEnv): ProvidersConfig {
  return {
    filehostA: providerFrom(env, 'filehostA'),
    filehostB: providerFrom(env, 'filehostB'),
    musicstream: providerFrom(env, 'musicstream'),
    pollSeconds: secondsFrom(env, 'MUSICSTREAM_POLL_SECONDS', 180),
    syncMinutes: minutesFrom(env, 'FILEHOST_SYNC_MINUTES', 30),
  };
}

function enrichmentFrom(env: NodeJS.ProcessEnv, publicUrl: string): EnrichmentConfig {
  return {
    enabled: oneOf(env, 'EARSHOT_ENRICH', ['on', 'off'] as const, 'on') === 'on',
    musicbrainzUrl: urlFrom(env, 'MUSICBRAINZ_URL', 'https://musicbrainz.org'),
    coverartUrl: urlFrom(env, 'COVERART_URL', 'https://coverartarchive.org'),
    // Unset is the default; set to nothing, artist pictures are not looked for.
    deezerUrl: env.DEEZER_URL === '' ? '' : urlFrom(env, 'DEEZER_URL', 'https://api.deezer.com'),
    contact: env.EARSHOT_CONTACT || publicUrl,
  };
}

/** Last.fm relaying is on when the operator's API key is set; then its secret must be set too. */
function relayFrom(env: NodeJS.ProcessEnv): RelayConfig {
  const apiKey = env.LASTFM_RELAY_API_KEY;
  const secret = env.LASTFM_RELAY_SECRET;
  if (apiKey && !secret) throw new ConfigError('LASTFM_RELAY_API_KEY is set but LASTFM_RELAY_SECRET is not: set both to relay to Last.fm');
  return {
    enabled: oneOf(env, 'EARSHOT_RELAY', ['on', 'off'] as const, 'on') === 'on',
    pollSeconds: jobSecondsFrom(env, 'EARSHOT_RELAY_POLL_SECONDS', 5),
    leaseSeconds: jobSecondsFrom(env, 'EARSHOT_RELAY_LEASE_SECONDS', 120),
    lastfm:
      apiKey && secret
        ? {
            apiKey,
            secret,
            apiUrl: `${urlFrom(env, 'LASTFM_RELAY_API_URL', 'https://ws.audioscrobbler.com/2.0')}/`,
            authUrl: `${urlFrom(env, 'LASTFM_RELAY_AUTH_URL', 'https://www.last.fm/api/auth')}/`,
          }
        : undefined,
  };
}

function metricsFrom(env: NodeJS.ProcessEnv): MetricsConfig {
  return {
    token: env.EARSHOT_METRICS_TOKEN || undefined,
    port: env.EARSHOT_METRICS_PORT ? integerFrom(env, 'EARSHOT_METRICS_PORT', 0) : undefined,
    // Loopback unless asked: a separate listener exists to keep metrics off the public interface.
    host: env.EARSHOT_METRICS_HOST || '127.0.0.1',
  };
}

/**
 * Reads `.env` from the working directory into process.env when there is one, with Node's own
 * loader: a variable already set in the environment (even to "") keeps its value.
 */
export function loadEnvFile(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = integerFrom(env, 'PORT', 8000);
  const scrobblerPort = integerFrom(env, 'SCROBBLER_PORT', port === 0 ? 0 : port + 1);
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const publicUrl = (env.PUBLIC_URL || `http://${displayHost}:${port}`).replace(/\/+$/, '');
  return {
    host,
    port,
    scrobblerPort,
    publicUrl,
    scrobblerPublicUrl: (env.SCROBBLER_PUBLIC_URL || `http://${displayHost}:${scrobblerPort}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.EARSHOT_DATA_DIR || 'data'),
    databaseUrl: databaseUrlFrom(env),
    secret: env.EARSHOT_SECRET || undefined,
    signup: oneOf(env, 'EARSHOT_SIGNUP', ['open', 'closed'] as const, 'open'),
    unmatchedScrobbles: oneOf(env, 'UNMATCHED_SCROBBLES', ['store', 'skip'] as const, 'store'),
    httpTimeouts: httpTimeoutsFrom(env),
    trustProxy: trustProxyFrom(env),
    musicDir: env.EARSHOT_MUSIC_DIR ? path.resolve(env.EARSHOT_MUSIC_DIR) : undefined,
    scanIntervalMinutes: minutesFrom(env, 'EARSHOT_SCAN_INTERVAL_MINUTES', 60),
    providers: providersFrom(env),
    metrics: metricsFrom(env),
    rateLimits: rateLimitsFrom(env),
    cors: corsFrom(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    shutdownTimeoutMs: millisecondsFrom(env, 'EARSHOT_SHUTDOWN_TIMEOUT_MS', 10_000),
    enrichment: enrichmentFrom(env, publicUrl),
    avatarPrivateAddresses: oneOf(env, 'AVATAR_PRIVATE_ADDRESSES', ['refuse', 'allow'] as const, 'refuse') === 'allow',
    relay: relayFrom(env),
    sync: {
      enabled: oneOf(env, 'EARSHOT_SYNC', ['on', 'off'] as const, 'on') === 'on',
      intervalMinutes: Math.max(1, minutesFrom(env, 'EARSHOT_SYNC_INTERVAL_MINUTES', 30)),
      listenbrainzUrl: urlFrom(env, 'LISTENBRAINZ_URL', 'https://api.listenbrainz.org'),
      pollSeconds: jobSecondsFrom(env, 'EARSHOT_SYNC_POLL_SECONDS', 10),
      leaseSeconds: jobSecondsFrom(env, 'EARSHOT_SYNC_LEASE_SECONDS', 120),
    },
    webhooks: {
      enabled: oneOf(env, 'EARSHOT_WEBHOOKS', ['on', 'off'] as const, 'on') === 'on',
      allowPrivate: oneOf(env, 'EARSHOT_WEBHOOKS_ALLOW_PRIVATE', ['false', 'true'] as const, 'false') === 'true',
    },
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    responseCacheMiB: wholeNumberFrom(env, 'EARSHOT_RESPONSE_CACHE_MB', 8, 'MiB', 0, 1024),
  };
}
