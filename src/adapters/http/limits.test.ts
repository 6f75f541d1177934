import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, oneBackend, type TestApp } from '../../app/testing.ts';
import { MAX_HEADER_BYTES } from './server.ts';
import { XRPC_BODY_LIMIT } from './xrpc-endpoints.ts';
import { MAX_HEAVY_READS_PER_CLIENT } from './heavy-limit.ts';

/** Timeouts small enough that the tests wait for the server, not for minutes. */
const timeouts = { headersMs: 300, requestMs: 600, idleMs: 1000 };

interface Exchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
}

/**
 * Opens a raw connection to `url`, writes `head` at once and then `trickle`
 * one byte at a time every `everyMs`, and resolves when the server closes the
 * connection. A server that never closes it leaves the test hanging until the
 * runner's timeout: the failure is the socket staying open, whatever the clock.
 */
function slowClient(url: string, head: string, trickle = '', everyMs = 100): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received });
    });
    socket.on('connect', () => {
      if (head) socket.write(head);
      timer = setInterval(() => {
        if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
      }, everyMs);
    });
  });
}

const statusOf = (exchange: Exchange) => Number(/^HTTP\/1\.1 (\d{3})/.exec(exchange.received)?.[1]);
const jsonBodyOf = (exchange: Exchange) => JSON.parse(exchange.received.slice(exchange.received.indexOf('\r\n\r\n') + 4));

describe('connection limits on both hosts', { timeout: 60_000 }, () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp(oneBackend(), { httpTimeouts: timeouts });
  });
  after(() => app.close());

  for (const host of ['api', 'scrobbler'] as const) {
    const url = () => (host === 'api' ? app.apiUrl : app.scrobblerUrl);
    // Routes that read a body without credentials first: a route that needs them answers 401 before the body.
    const post =
      host === 'api'
        ? { path: '/auth/login', type: 'application/json', body: '{"identifier":"a","password":"b"}' }
        : { path: '/2.0/', type: 'application/x-www-form-urlencoded', body: 'method=auth.getMobileSession&username=a' };

    it(`${host}: a body trickling in a byte at a time is cut off with 408`, async () => {
      // Bytes keep arriving; only the request timeout can end this.
      const body = post.body.padEnd(200, host === 'api' ? ' ' : '&');
      const exchange = await slowClient(
        url(),
        `POST ${post.path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${post.type}\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      );
      assert.equal(statusOf(exchange), 408, exchange.received);
      assert.equal(jsonBodyOf(exchange).error, 'RequestTimeout');
    });

    it(`${host}: headers trickling in a byte at a time are cut off`, async () => {
      const exchange = await slowClient(url(), '', 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: '.padEnd(400, 'z'));
      assert.ok(exchange.received === '' || statusOf(exchange) === 408, exchange.received);
    });

    it(`${host}: a kept-alive connection that goes quiet is closed`, async () => {
      const exchange = await slowClient(url(), 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(exchange.received, /^HTTP\/1\.1 (200|404) /);
    });
  }

  it('an XRPC body over the XRPC limit gets 413 in the spec shape', async () => {
    const { token } = await app.signup('limits');
    const result = await app.procedure('app.svc.scrobble.createScrobble', { artist: 'a', title: 'b', padding: 'x'.repeat(XRPC_BODY_LIMIT) }, token);
    assert.equal(result.status, 413);
    assert.equal(result.body.error, 'PayloadTooLarge');
    assert.equal(typeof result.body.message, 'string');
  });

  it('importListens takes batches far larger than the XRPC default', async () => {
    const { token } = await app.signup('limits-import');
    const listens = Array.from({ length: 100 }, (_, i) => ({
      artist: 'Import Artist',
      title: `Song ${i}`,
      listenedAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
      submitted: { note: 'n'.repeat(2000) },
    }));
    const input = { fingerprint: 'c'.repeat(64), format: 'listenbrainz', from: 0, records: listens.length, listens, complete: true };
    assert.ok(JSON.stringify(input).length > XRPC_BODY_LIMIT);
    const result = await app.procedure('app.svc.scrobble.importListens', input, token);
    assert.equal(result.status, 200, JSON.stringify(result.body));
  });

  it('a 2048-character CJK filter (about 18 KB of URL) is answered, not refused by the header limit', async () => {
    const filter = `title==*${'愛'.repeat(2039)}*`;
    assert.equal(filter.length, 2048);
    const result = await app.query('app.svc.song.getSongs', { filter });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(result.body.tracks, []);
  });

  it('headers beyond the raised limit get 431 in the spec shape', async () => {
    const exchange = await slowClient(app.apiUrl, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`);
    assert.equal(statusOf(exchange), 431, exchange.received);
    const body = jsonBodyOf(exchange);
    assert.equal(body.error, 'RequestHeaderFieldsTooLarge');
    assert.equal(typeof body.message, 'string');
  });

  it('a client with too many statistics requests in flight gets 429 with Retry-After, in the spec shape', async () => {
    const { did } = await app.signup('limits-heavy');
    // Hold the embedded database, so that every admitted Wrapped stays in flight until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHeld = new Promise<void>((resolve) => (holding = resolve));
    const transaction = app.ctx.db.transaction().execute(async () => {
      holding();
      await held;
    });
    await isHeld;
    const extra = 2;
    let settled = 0;
    const requests = Array.from({ length: MAX_HEAVY_READS_PER_CLIENT + extra }, (_, i) =>
      app.query('app.svc.stats.getWrapped', { did, year: 2001 + i }).finally(() => settled++),
    );
    while (settled < extra) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await transaction;
    const results = await Promise.all(requests);
    const refused = results.filter((result) => result.status === 429);
    assert.equal(refused.length, extra);
    assert.equal(results.filter((result) => result.status === 200).length, MAX_HEAVY_READS_PER_CLIENT);
    for (const result of refused) {
      assert.equal(result.body.error, 'RateLimitExceeded');
      assert.equal(typeof result.body.message, 'string');
      assert.equal(result.headers.get('retry-after'), '1');
    }
  });
});
