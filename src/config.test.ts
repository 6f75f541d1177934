import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

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
  assert.throws(() => loadConfig({ PORT: 'eighty' }), (error: Error) => error instanceof ConfigError && /PORT/.test(error.message));
  assert.throws(() => loadConfig({ UNMATCHED_SCROBBLES: 'drop' }), /UNMATCHED_SCROBBLES must be one of store, skip/);
  assert.throws(() => loadConfig({ EARSHOT_SIGNUP: 'maybe' }), /EARSHOT_SIGNUP/);
});

test('HTTP timeouts: defaults, overrides, and a headers timeout never longer than the request timeout', () => {
  assert.deepEqual(loadConfig({}).httpTimeouts, { headersMs: 20_000, requestMs: 120_000, idleMs: 30_000 });
  assert.deepEqual(
    loadConfig({ EARSHOT_HEADERS_TIMEOUT_MS: '100', EARSHOT_REQUEST_TIMEOUT_MS: '200', EARSHOT_IDLE_TIMEOUT_MS: '300' }).httpTimeouts,
    { headersMs: 100, requestMs: 200, idleMs: 300 },
  );
  assert.throws(() => loadConfig({ EARSHOT_IDLE_TIMEOUT_MS: '0' }), /EARSHOT_IDLE_TIMEOUT_MS/);
  assert.throws(() => loadConfig({ EARSHOT_HEADERS_TIMEOUT_MS: '5000', EARSHOT_REQUEST_TIMEOUT_MS: '1000' }), /must not exceed/);
});
