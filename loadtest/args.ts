import { isIP } from 'node:net';
import { parseArgs } from 'node:util';

export interface LoadTestOptions {
  /** Seconds each scenario runs. */
  durationSeconds: number;
  connections: number;
  /** An already running server's API; absent: the load test starts its own. */
  url: string | undefined;
  /** Its scrobbler host, when the server's own answer (app.svc.server.getInfo) is not the one to use. */
  scrobblerUrl: string | undefined;
  /** The running server's process, for its RSS. */
  pid: number | undefined;
  json: boolean;
}

export const USAGE = `usage: npm run loadtest -- [--duration <seconds>] [--connections <n>] [--url <loopback base URL> [--scrobbler-url <url>] [--pid <server pid>]] [--json]

  Starts a server on loopback (a temporary PGlite data directory, or DATABASE_URL), seeds it through
  its APIs and loads getFeed, getSongs, getWrapped, a ListenBrainz submit and Subsonic stream in turn
  with autocannon. --url loads a server already running on this machine instead.`;

/** Bad arguments: the message, with the usage, and exit status 2. */
export class UsageError extends Error {}

function wholeNumber(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * An http URL on this machine, without a trailing slash. A load test sends thousands of requests a
 * second: pointed at a server elsewhere it would be an attack on that server and its network, so it is refused.
 */
export function loopbackUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--${name} must be a URL such as http://127.0.0.1:8000, got "${raw}"`);
  }
  if (url.protocol !== 'http:') throw new UsageError(`--${name} must be an http:// URL (the load test talks to loopback only), got "${raw}"`);
  if (!isLoopback(url.hostname)) {
    throw new UsageError(`${raw} is not a loopback address: the load test only loads a server on this machine (127.0.0.1, ::1 or localhost)`);
  }
  return raw.replace(/\/+$/, '');
}

export function parseLoadTestArgs(args: string[]): LoadTestOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        duration: { type: 'string' },
        connections: { type: 'string' },
        url: { type: 'string' },
        'scrobbler-url': { type: 'string' },
        pid: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const url = values.url === undefined ? undefined : loopbackUrl('url', values.url);
  if (url === undefined && (values['scrobbler-url'] !== undefined || values.pid !== undefined)) {
    throw new UsageError('--scrobbler-url and --pid describe a server given with --url; without --url the load test starts its own');
  }
  return {
    durationSeconds: wholeNumber('duration', values.duration, 10, 3600),
    connections: wholeNumber('connections', values.connections, 32, 1000),
    url,
    scrobblerUrl: values['scrobbler-url'] === undefined ? undefined : loopbackUrl('scrobbler-url', values['scrobbler-url']),
    pid: values.pid === undefined ? undefined : wholeNumber('pid', values.pid, 0, 2 ** 22),
    json: values.json,
  };
}
