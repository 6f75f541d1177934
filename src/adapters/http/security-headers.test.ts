import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { subsonicUser, rest } from '../subsonic/client-testing.ts';
import { createTestLibrary, type TestLibrary } from '../subsonic/library-testing.ts';

/** What every answer carries, whatever its kind. */
function assertCommon(response: Response, what: string): void {
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(response.headers.get('x-frame-options'), 'DENY', what);
  assert.equal(response.headers.get('referrer-policy'), 'same-origin', what);
}

/** A JSON, XML or file answer: loads nothing, runs nothing, frames nowhere, and is sandboxed when opened. */
function assertLockedDown(response: Response, what: string): void {
  assertCommon(response, what);
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'; sandbox", what);
  assert.equal(response.headers.get('cross-origin-opener-policy'), null, what);
  assert.equal(response.headers.get('strict-transport-security'), null, `${what}: the public URL is http`);
}

describeWithApp('security headers', (app) => {
  let library: TestLibrary;
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  before(async () => {
    user = await subsonicUser(app(), 'guarded');
    library = await createTestLibrary(app().ctx.db);
  });
  after(() => library.remove());

  test("the web app's HTML has the strict policy and its own browsing context group", async () => {
    for (const path of ['/', '/u/someone/wrapped']) {
      const response = await fetch(`${app().apiUrl}${path}`);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assertCommon(response, path);
      const csp = response.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
      ]) {
        assert.ok(csp.split('; ').includes(directive), `${path}: ${directive} in ${csp}`);
      }
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
      // The policy allows no inline script or style, so the built page must hold none (Vite's preload polyfill included).
      const html = await response.text();
      assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/i);
    }
  });

  test('JSON answers, errors included, are locked down', async () => {
    const ok = await fetch(`${app().apiUrl}/xrpc/app.svc.actor.getProfile?did=${user.did}`);
    assert.equal(ok.status, 200);
    assertLockedDown(ok, 'XRPC query');
    const missing = await fetch(`${app().apiUrl}/xrpc/app.svc.nope`);
    assert.equal(missing.status, 404);
    assertLockedDown(missing, 'XRPC 404');
    const noRoute = await fetch(`${app().apiUrl}/auth/nothing-here`);
    assert.equal(noRoute.status, 404);
    assertLockedDown(noRoute, 'route 404');
    const unauthorized = await fetch(`${app().apiUrl}/auth/sessions`);
    assert.equal(unauthorized.status, 401);
    assertLockedDown(unauthorized, '401');
    const invalid = await fetch(`${app().apiUrl}/xrpc/app.svc.actor.getProfile`);
    assert.equal(invalid.status, 400);
    assertLockedDown(invalid, 'validation 400');
    assertLockedDown(await fetch(`${app().apiUrl}/openapi.json`), 'OpenAPI document');
  });

  test('Subsonic XML, a stream and covers are locked down', async () => {
    const ping = await rest(app(), 'ping', { u: user.handle, p: user.key, v: '1.16.1', c: 'test' });
    assert.match(ping.headers.get('content-type') ?? '', /xml/);
    assertLockedDown(ping, 'Subsonic XML');
    const track = library.tracks.get('The Alpha Band/First Album/01 Opening.mp3')!;
    const stream = await rest(app(), 'stream', { u: user.handle, p: user.key, v: '1.16.1', c: 'test', id: track });
    assert.equal(stream.status, 200);
    assertLockedDown(stream, 'stream');
    const cover = await fetch(`${app().apiUrl}/library/covers/${track}`);
    assert.equal(cover.status, 200);
    assertLockedDown(cover, 'public cover');
    const export_ = await fetch(`${app().apiUrl}/export`, { headers: { authorization: `Bearer ${user.token}` } });
    assert.equal(export_.status, 200);
    assertLockedDown(export_, 'export download');
  });

  test('the scrobbler host is locked down; the Last.fm authorisation page keeps its own policy', async () => {
    const listenBrainz = await fetch(`${app().scrobblerUrl}/1/validate-token`, { headers: { authorization: 'Token nope' } });
    assertLockedDown(listenBrainz, 'ListenBrainz');
    const lastfm = await fetch(`${app().scrobblerUrl}/2.0/?method=auth.getToken`);
    assertLockedDown(lastfm, 'Last.fm');
    const page = await fetch(`${app().scrobblerUrl}/api/auth/?api_key=nope&token=nope`);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  });

  test('a request Node itself refuses is answered with the headers too', async () => {
    const { port } = new URL(app().apiUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.end('NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/);
    assert.match(answer, /\r\ncontent-security-policy: default-src 'none'; frame-ancestors 'none'; sandbox\r\n/);
  });
});

describeWithApp(
  'security headers behind https',
  (app) => {
    test('HSTS on the host whose public URL is https, not on the other', async () => {
      const api = await fetch(`${app().apiUrl}/xrpc/app.svc.nope`);
      assert.equal(api.headers.get('strict-transport-security'), 'max-age=31536000');
      const page = await fetch(`${app().apiUrl}/`);
      assert.equal(page.headers.get('strict-transport-security'), 'max-age=31536000');
      const scrobbler = await fetch(`${app().scrobblerUrl}/`);
      assert.equal(scrobbler.headers.get('strict-transport-security'), null);
    });
    // A response header chosen by configuration: nothing stored.
  },
  { publicUrl: 'https://earshot.example', scrobblerPublicUrl: 'http://scrobble.example' },
  { storage: 'one' },
);
