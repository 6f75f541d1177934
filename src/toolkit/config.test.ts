import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError } from './config-error.ts';
import { loadConfig } from './config.ts';
import { PACKAGE_ROOT } from './package-root.ts';

test('defaults: API on 8000, scrobbler on the next port, embedded storage, open sign-up, store unmatched', () => {
  const config = loadConfig({});
  assert.equal(config.port, 8000);
  assert.equal(config.scrobblerPort, 8001);
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.signup, 'open');
  assert.equal(config.unmatchedScrobbles, 'store');
  assert.equal(config.publicUrl, 'http://127.0.0.1:8000');
});

test('the scrobbler port follows PORT unless set', () => {
  assert.equal(loadConfig({ PORT: '9000' }).scrobblerPort, 9001);
  assert.equal(loadConfig({ PORT: '9000', SCROBBLER_PORT: '7000' }).scrobblerPort, 7000);
});

test('bad values are configuration errors that name the variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty' }),
    (error: Error) => error instanceof ConfigError && /PORT/.test(error.message),
  );
  assert.throws(() => loadConfig({ UNMATCHED_SCROBBLES: 'drop' }), /UNMATCHED_SCROBBLES must be one of store, skip/);
  assert.throws(() => loadConfig({ EARSHOT_SIGNUP: 'maybe' }), /EARSHOT_SIGNUP/);
});

test('HTTP timeouts: defaults, overrides, and a headers timeout never longer than the request timeout', () => {
  assert.deepEqual(loadConfig({}).httpTimeouts, { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000 });
  assert.deepEqual(loadConfig({ EARSHOT_HEADERS_TIMEOUT_MS: '100', EARSHOT_REQUEST_TIMEOUT_MS: '200', EARSHOT_IDLE_TIMEOUT_MS: '300' }).httpTimeouts, {
    headersMs: 100,
    requestMs: 200,
    idleMs: 300,
  });
  assert.throws(() => loadConfig({ EARSHOT_IDLE_TIMEOUT_MS: '0' }), /EARSHOT_IDLE_TIMEOUT_MS/);
  assert.throws(() => loadConfig({ EARSHOT_HEADERS_TIMEOUT_MS: '5000', EARSHOT_REQUEST_TIMEOUT_MS: '1000' }), /must not exceed/);
});

test('providers: off without a client id, on with id and secret at the public endpoints, every endpoint movable', () => {
  const none = loadConfig({}).providers;
  assert.deepEqual([none.filehostA, none.filehostB, none.musicstream], [undefined, undefined, undefined]);
  assert.deepEqual([none.pollSeconds, none.syncMinutes], [180, 30]);

  const real = loadConfig({ FILEHOSTB_CLIENT_ID: 'id', FILEHOSTB_CLIENT_SECRET: 'secret' }).providers.filehostB!;
  assert.equal(real.apiUrl, 'https://api.dropboxapi.com/2');
  assert.equal(real.contentUrl, 'https://content.dropboxapi.com/2');

  // A moved API serves downloads too unless the content URL is moved on its own.
  const moved = loadConfig({
    FILEHOSTB_CLIENT_ID: 'id',
    FILEHOSTB_CLIENT_SECRET: 'secret',
    FILEHOSTB_API_URL: 'http://127.0.0.1:9101/2/',
    FILEHOSTB_TOKEN_URL: 'http://127.0.0.1:9101/oauth/token',
    MUSICSTREAM_POLL_SECONDS: '60',
    FILEHOST_SYNC_MINUTES: '0',
  }).providers;
  assert.deepEqual(
    [moved.filehostB!.apiUrl, moved.filehostB!.contentUrl, moved.filehostB!.tokenUrl, moved.pollSeconds, moved.syncMinutes],
    ['http://127.0.0.1:9101/2', 'http://127.0.0.1:9101/2', 'http://127.0.0.1:9101/oauth/token', 60, 0],
  );

  assert.throws(() => loadConfig({ MUSICSTREAM_CLIENT_ID: 'id' }), /MUSICSTREAM_CLIENT_SECRET is not/);
  assert.throws(
    () => loadConfig({ FILEHOSTA_CLIENT_ID: 'id', FILEHOSTA_CLIENT_SECRET: 's', FILEHOSTA_API_URL: 'ftp://x' }),
    /FILEHOSTA_API_URL must be an http\(s\) URL/,
  );
  assert.throws(() => loadConfig({ MUSICSTREAM_POLL_SECONDS: '1' }), /MUSICSTREAM_POLL_SECONDS/);
});

test('metrics: on the public hosts with no token by default; a token, and a listener of their own on loopback unless told', () => {
  assert.deepEqual(loadConfig({}).metrics, { token: undefined, port: undefined, host: '127.0.0.1' });
  assert.deepEqual(loadConfig({ EARSHOT_METRICS_TOKEN: 'scrape-secret', EARSHOT_METRICS_PORT: '9464', EARSHOT_METRICS_HOST: '10.0.0.5' }).metrics, {
    token: 'scrape-secret',
    port: 9464,
    host: '10.0.0.5',
  });
  assert.throws(() => loadConfig({ EARSHOT_METRICS_PORT: 'nine' }), /EARSHOT_METRICS_PORT must be a port number/);
});

test('EARSHOT_TRUST_PROXY: off by default; true, a number of hops, or proxy addresses', () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ EARSHOT_TRUST_PROXY: 'true' }).trustProxy, true);
  assert.equal(loadConfig({ EARSHOT_TRUST_PROXY: '2' }).trustProxy, 2);
  assert.deepEqual(loadConfig({ EARSHOT_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
  assert.throws(() => loadConfig({ EARSHOT_TRUST_PROXY: 'nginx' }), /EARSHOT_TRUST_PROXY must be/);
});

test('LOG_LEVEL: info by default, any pino level, anything else a configuration error listing the levels', () => {
  assert.equal(loadConfig({}).logLevel, 'info');
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) assert.equal(loadConfig({ LOG_LEVEL: level }).logLevel, level);
  assert.throws(
    () => loadConfig({ LOG_LEVEL: 'loud' }),
    (error: Error) => error instanceof ConfigError && /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/.test(error.message),
  );
});

test('EARSHOT_SHUTDOWN_TIMEOUT_MS: ten seconds by default, whole milliseconds above 0 otherwise', () => {
  assert.equal(loadConfig({}).shutdownTimeoutMs, 10_000);
  assert.equal(loadConfig({ EARSHOT_SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs, 2500);
  assert.throws(() => loadConfig({ EARSHOT_SHUTDOWN_TIMEOUT_MS: '0' }), /EARSHOT_SHUTDOWN_TIMEOUT_MS/);
});

test('relay and sync polls and leases: 5 s / 10 s polls and two-minute leases by default, whole seconds from 1', () => {
  const defaults = loadConfig({});
  assert.deepEqual([defaults.relay.pollSeconds, defaults.relay.leaseSeconds, defaults.sync.pollSeconds, defaults.sync.leaseSeconds], [5, 120, 10, 120]);
  const short = loadConfig({
    EARSHOT_RELAY_POLL_SECONDS: '1',
    EARSHOT_RELAY_LEASE_SECONDS: '4',
    EARSHOT_SYNC_POLL_SECONDS: '1',
    EARSHOT_SYNC_LEASE_SECONDS: '2',
  });
  assert.deepEqual([short.relay.pollSeconds, short.relay.leaseSeconds, short.sync.pollSeconds, short.sync.leaseSeconds], [1, 4, 1, 2]);
  for (const name of ['EARSHOT_RELAY_POLL_SECONDS', 'EARSHOT_RELAY_LEASE_SECONDS', 'EARSHOT_SYNC_POLL_SECONDS', 'EARSHOT_SYNC_LEASE_SECONDS']) {
    for (const bad of ['0', '1.5', 'soon']) assert.throws(() => loadConfig({ [name]: bad }), new RegExp(name));
  }
});

test("DEEZER_URL: Deezer's API by default, movable, and set to nothing no artist pictures are looked for", () => {
  assert.equal(loadConfig({}).enrichment.deezerUrl, 'https://api.deezer.com');
  assert.equal(loadConfig({ DEEZER_URL: 'http://127.0.0.1:9000/' }).enrichment.deezerUrl, 'http://127.0.0.1:9000');
  assert.equal(loadConfig({ DEEZER_URL: '' }).enrichment.deezerUrl, '');
  assert.throws(() => loadConfig({ DEEZER_URL: 'ftp://example.org' }), /DEEZER_URL/);
});

test('.env.example documents every variable the configuration reads', () => {
  const read = new Set<string>();
  // Every provider on, so each provider variable is read too.
  const env = new Proxy<NodeJS.ProcessEnv>(
    {
      FILEHOSTA_CLIENT_ID: 'a',
      FILEHOSTA_CLIENT_SECRET: 'a',
      FILEHOSTB_CLIENT_ID: 'b',
      FILEHOSTB_CLIENT_SECRET: 'b',
      MUSICSTREAM_CLIENT_ID: 'm',
      MUSICSTREAM_CLIENT_SECRET: 'm',
    },
    {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return Reflect.get(target, name);
      },
    },
  );
  loadConfig(env);
  const documented = new Set(
    [...fs.readFileSync(path.join(PACKAGE_ROOT, '.env.example'), 'utf8').matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]),
  );
  assert.ok(read.size > 20);
  assert.deepEqual(
    [...read].filter((name) => !documented.has(name)),
    [],
  );
});
