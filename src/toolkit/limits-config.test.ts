import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from './config-error.ts';
import { corsFrom, DEFAULT_RATE_LIMITS, rateLimitsFrom } from './limits-config.ts';

test('rate limits are on by default, with generous budgets and no Redis', () => {
  assert.deepEqual(rateLimitsFrom({}), { ...DEFAULT_RATE_LIMITS, redisUrl: undefined });
});

test('each budget, the switch and Redis are read from the environment', () => {
  const limits = rateLimitsFrom({
    EARSHOT_RATE_LIMITS: 'off',
    EARSHOT_RATE_LIMIT_SIGNIN: '5',
    EARSHOT_RATE_LIMIT_SIGNIN_IP: '20',
    EARSHOT_RATE_LIMIT_SUBMISSIONS: '3000',
    EARSHOT_RATE_LIMIT_READS: '1200',
    REDIS_URL: 'redis://:secret@cache:6379/2',
    EARSHOT_REDIS_PREFIX: 'one:',
  });
  assert.deepEqual(limits, {
    enabled: false,
    signinFailures: 5,
    signinAttempts: 20,
    submissions: 3000,
    reads: 1200,
    redisUrl: 'redis://:secret@cache:6379/2',
    redisPrefix: 'one:',
  });
});

test('bad values are refused with the variable named, and a Redis password is never repeated', () => {
  assert.throws(() => rateLimitsFrom({ EARSHOT_RATE_LIMITS: 'no' }), /EARSHOT_RATE_LIMITS must be on or off/);
  assert.throws(() => rateLimitsFrom({ EARSHOT_RATE_LIMIT_READS: '0' }), /EARSHOT_RATE_LIMIT_READS must be a whole number/);
  assert.throws(() => rateLimitsFrom({ EARSHOT_RATE_LIMIT_SIGNIN: '2.5' }), ConfigError);
  assert.throws(
    () => rateLimitsFrom({ REDIS_URL: 'http://:hunter2@cache' }),
    (error: Error) => error instanceof ConfigError && /REDIS_URL must be a redis:\/\//.test(error.message) && !error.message.includes('hunter2'),
  );
});

test('CORS: `*` by default, listed origins normalized, a path or junk refused', () => {
  assert.deepEqual(corsFrom({}), { anyOrigin: true, credentialedOrigins: [] });
  assert.deepEqual(corsFrom({ EARSHOT_CORS_ORIGINS: 'https://app.example.org/, http://localhost:5173' }), {
    anyOrigin: false,
    credentialedOrigins: ['https://app.example.org', 'http://localhost:5173'],
  });
  assert.throws(() => corsFrom({ EARSHOT_CORS_ORIGINS: 'https://app.example.org/path' }), /not an origin/);
  assert.throws(() => corsFrom({ EARSHOT_CORS_ORIGINS: 'app.example.org' }), /not an origin/);
});
