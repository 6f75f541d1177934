import { after, before, describe } from 'node:test';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../toolkit/config.ts';
import type { AppContext } from '../core/context.ts';
import { deriveKeys } from '../core/auth/index.ts';
import { oneBackend, testBackends, type TestBackend } from '../toolkit/db/testing.ts';
import { startHosts } from './server.ts';
import { Metrics } from '../core/ops/metrics.ts';

export { oneBackend, testBackends, type TestBackend };

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  ctx: AppContext;
  apiUrl: string;
  scrobblerUrl: string;
  /** The separate metrics listener, when the config gives it a port. */
  metricsUrl: string | undefined;
  /** JSON request to the API host; `path` may carry a query string. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResult<T>>;
  /** GET /xrpc/<nsid> with query parameters. */
  query<T = any>(nsid: string, params?: Record<string, string | number | boolean | string[]>, token?: string): Promise<HttpResult<T>>;
  /** POST /xrpc/<nsid> with a JSON body. */
  procedure<T = any>(nsid: string, input?: unknown, token?: string): Promise<HttpResult<T>>;
  /** Creates an account and returns its sign-in token. */
  signup(handle: string, password?: string): Promise<{ did: string; handle: string; token: string }>;
  close(): Promise<void>;
}

/** How many plays the user with this DID has stored. */
export async function scrobbleCount(app: TestApp, did: string): Promise<number> {
  const row = await app.ctx.db
    .selectFrom('scrobbles')
    .innerJoin('users', 'users.id', 'scrobbles.user_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.did', '=', did)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function jsonRequest<T>(url: string, method: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: response.status, body: body as T, headers: response.headers };
}

export interface LargeBodyResult {
  status: number;
  body: string;
  /** Whether the whole body had been sent when the response began: false means the server answered without waiting for it. */
  bodyComplete: boolean;
}

/**
 * POSTs `size` bytes of JSON whitespace in 64 KiB chunks, each after the previous one drained,
 * and stops sending once a response begins. A server that reads the body first can only answer
 * after the last chunk; one that checks credentials on the headers answers long before, since
 * socket buffers hold far less than the body.
 */
export function postLargeBody(url: string, size: number, headers: Record<string, string> = {}): Promise<LargeBodyResult> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let bodyComplete: boolean | undefined;
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(size), ...headers } });
    request.on('response', (response) => {
      bodyComplete = sent >= size;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8'), bodyComplete: bodyComplete! });
      });
    });
    // Once the server has answered, it may close the socket under the rest of the body.
    request.on('error', (error) => bodyComplete === undefined && reject(error));
    const chunk = Buffer.alloc(64 * 1024, ' ');
    const sendMore = (): void => {
      while (bodyComplete === undefined && sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', sendMore);
      }
      if (bodyComplete === undefined) request.end();
    };
    sendMore();
  });
}

function searchParams(params: Record<string, string | number | boolean | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Both hosts on ephemeral ports over a fresh database of the given backend. */
export async function startTestApp(backend: TestBackend, overrides: Partial<Config> = {}): Promise<TestApp> {
  const storage = await backend.open();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-test-'));
  // Tests sign in and submit far more often than any client from one address; limit tests turn them on.
  // No test reaches MusicBrainz: enrichment tests turn it on against the fakes.
  const config: Config = { ...loadConfig({ EARSHOT_RATE_LIMITS: 'off', EARSHOT_ENRICH: 'off' }), port: 0, scrobblerPort: 0, dataDir, ...overrides };
  const ctx: AppContext = { config, db: storage.db, keys: deriveKeys('test-secret-'.padEnd(48, 'x')), metrics: new Metrics(storage.db) };
  const hosts = await startHosts(ctx, ['api', 'scrobbler'], false);
  const apiUrl = hosts.urls.api!;
  const app: TestApp = {
    ctx,
    apiUrl,
    scrobblerUrl: hosts.urls.scrobbler!,
    metricsUrl: hosts.urls.metrics,
    request: (method, requestPath, options) => jsonRequest(`${apiUrl}${requestPath}`, method, options),
    query: (nsid, params = {}, token) => jsonRequest(`${apiUrl}/xrpc/${nsid}${searchParams(params)}`, 'GET', { token }),
    procedure: (nsid, input, token) => jsonRequest(`${apiUrl}/xrpc/${nsid}`, 'POST', { token, body: input ?? {} }),
    async signup(handle, password = 'correct horse battery') {
      const result = await app.request('POST', '/auth/signup', { body: { handle, password } });
      if (result.status !== 201) throw new Error(`signup failed: ${JSON.stringify(result.body)}`);
      return result.body;
    },
    async close() {
      await hosts.close();
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

export interface AppSuiteOptions {
  /**
   * `both` (the default) runs the suite once per backend: for suites where what is stored and read back
   * matters. `one` runs it on one backend (`oneBackend`: the PostgreSQL server when the tests have one):
   * for suites about what HTTP answers look like (headers, a browser's view), which reach storage only on
   * the way. Each `one` says why.
   */
  storage?: 'both' | 'one';
}

/** Declares the same suite once per storage backend (or once, see AppSuiteOptions), each over its own running app. */
export function describeWithApp(title: string, suite: (app: () => TestApp) => void, overrides: Partial<Config> = {}, options: AppSuiteOptions = {}): void {
  const backends = testBackends();
  for (const backend of options.storage === 'one' ? [oneBackend()] : backends) {
    describe(`${title} [${backend.name}]`, () => {
      let app: TestApp | undefined;
      before(async () => {
        app = await startTestApp(backend, overrides);
      });
      after(() => app?.close());
      suite(() => app!);
    });
  }
}
