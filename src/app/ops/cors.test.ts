import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, oneBackend, type TestApp } from '../testing.ts';
import { corsFrom, type CorsConfig } from '../../toolkit/limits-config.ts';

const LISTED = 'https://app.example.org';
const STRANGER = 'https://elsewhere.example.net';

/** CORS is about requests, not storage: one backend is enough. */
const backend = oneBackend();

function withApp(cors: CorsConfig): () => TestApp {
  let app: TestApp | undefined;
  before(async () => {
    app = await startTestApp(backend, { cors });
  });
  after(() => app?.close());
  return () => app!;
}

const preflight = (url: string, origin: string, method = 'POST', headers = 'authorization, content-type') =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });

const get = (url: string, origin: string) => fetch(url, { headers: { origin } });

describe('CORS with `*` and a listed origin', () => {
  const app = withApp(corsFrom({ EARSHOT_CORS_ORIGINS: `*, ${LISTED}` }));
  const xrpc = () => `${app().apiUrl}/xrpc/app.svc.scrobble.createScrobble`;

  test('a preflight from a listed origin may send credentials and Authorization', async () => {
    const response = await preflight(xrpc(), LISTED);
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), LISTED);
    assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /DELETE/);
    assert.match(response.headers.get('vary') ?? '', /Origin/);
  });

  test('a preflight from any other origin is answered for reads without credentials', async () => {
    const response = await preflight(xrpc(), STRANGER);
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
    assert.equal(response.headers.get('access-control-allow-headers'), 'Content-Type');
  });

  test('a GET with an Origin: `*` for strangers, the origin itself and credentials for a listed one', async () => {
    const stranger = await get(`${app().apiUrl}/xrpc/app.svc.server.getInfo`, STRANGER);
    assert.equal(stranger.status, 200);
    assert.equal(stranger.headers.get('access-control-allow-origin'), '*');
    assert.equal(stranger.headers.get('access-control-allow-credentials'), null);
    assert.match(stranger.headers.get('access-control-expose-headers') ?? '', /retry-after/);
    const listed = await get(`${app().apiUrl}/openapi.json`, LISTED);
    assert.equal(listed.headers.get('access-control-allow-origin'), LISTED);
    assert.equal(listed.headers.get('access-control-allow-credentials'), 'true');
  });

  test('Subsonic and the scrobbler host answer under the same rules', async () => {
    const subsonic = await get(`${app().apiUrl}/rest/ping.view?f=json`, STRANGER);
    assert.equal(subsonic.headers.get('access-control-allow-origin'), '*');
    const listenCount = await get(`${app().scrobblerUrl}/1/user/nobody/listen-count`, STRANGER);
    assert.equal(listenCount.headers.get('access-control-allow-origin'), '*');
    const scrobblerPreflight = await preflight(`${app().scrobblerUrl}/1/submit-listens`, LISTED);
    assert.equal(scrobblerPreflight.headers.get('access-control-allow-credentials'), 'true');
  });

  test('a request without Origin (the web app, any non-browser client) is unaffected', async () => {
    const response = await fetch(`${app().apiUrl}/openapi.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
  });
});

describe('CORS with listed origins only', () => {
  const app = withApp(corsFrom({ EARSHOT_CORS_ORIGINS: LISTED }));

  test('another origin gets no CORS header, and its preflight is not answered', async () => {
    const response = await get(`${app().apiUrl}/openapi.json`, STRANGER);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    const refused = await preflight(`${app().apiUrl}/openapi.json`, STRANGER, 'GET');
    assert.equal(refused.status, 404);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal((await preflight(`${app().apiUrl}/openapi.json`, LISTED, 'GET')).status, 204);
  });
});
