/**
 * Relay test support. A loopback HTTP proxy in front of a target (in the tests, a second Earshot): it records what
 * passes, so a test can tell a play was sent exactly once, can be switched off to stand for
 * the target being down (connections are dropped), and can hold requests unanswered to stand for
 * a slow target, so that a sender can be killed while its delivery is in flight.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { jsonRequest, type TestApp } from '../../app/testing.ts';
import type { AppContext } from '../context.ts';
import { LASTFM_BINDING_COOKIE } from './lastfm-link.ts';

export interface RelayProxy {
  url: string;
  /** Each request passed on: "METHOD /path" and its body. */
  readonly seen: { line: string; body: string }[];
  down: boolean;
  /** Requests this accepts are held, unanswered and not passed on yet, until release(). */
  holdIf: ((line: string) => boolean) | null;
  /** How many requests are held now. */
  readonly holding: number;
  /** Stops holding, and passes the held requests on: they reach the target even when their sender has died meanwhile. */
  release(): void;
  close(): Promise<void>;
}

export async function startRelayProxy(upstream: string): Promise<RelayProxy> {
  const seen: RelayProxy['seen'] = [];
  const held: (() => void)[] = [];
  const proxy = {
    seen,
    down: false,
    holdIf: null,
    get holding() {
      return held.length;
    },
    release() {
      proxy.holdIf = null;
      for (const pass of held.splice(0)) pass();
    },
  } as unknown as RelayProxy;
  const server = http.createServer(async (request, response) => {
    if (proxy.down) return void request.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const line = `${request.method} ${request.url}`;
    seen.push({ line, body });
    if (proxy.holdIf?.(line)) await new Promise<void>((pass) => held.push(pass));
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<
      string,
      string
    >;
    const answer = await fetch(`${upstream}${request.url}`, {
      method: request.method!,
      headers,
      body: request.method === 'GET' ? undefined : body,
      redirect: 'manual',
    });
    const text = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
      'content-length': String(text.length),
    });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      proxy.release();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

/**
 * Starts linking a Last.fm target on A as the owner's browser does (app.svc.relay.linkLastfm), and
 * approves it at the authorisation page (another Earshot's /api/auth/) as `account`: the callback
 * address the browser is sent back to, and the binding cookie (`name=value`) A set on that browser.
 */
export async function approveLastfmLink(
  a: TestApp,
  ownerToken: string,
  targetId: string,
  account: { handle: string; password: string },
): Promise<{ callback: string; cookie: string }> {
  const link = await a.procedure('app.svc.relay.linkLastfm', { id: targetId }, ownerToken);
  assert.equal(link.status, 200, JSON.stringify(link.body));
  const cookie = link.headers.getSetCookie().find((header) => header.startsWith(`${LASTFM_BINDING_COOKIE}=`));
  assert.ok(cookie, 'linkLastfm sets the binding cookie');
  assert.match(cookie, /; Path=\/relay\/lastfm\/callback; .*HttpOnly; SameSite=Lax/);
  const page = await jsonRequest<string>(link.body.url, 'GET');
  assert.equal(page.status, 200);
  const token = /name="token" value="([0-9a-f]+)"/.exec(page.body)![1]!;
  const approved = await fetch(link.body.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_key: /api_key=([0-9a-f]+)/.exec(link.body.url)![1]!, token, identifier: account.handle, password: account.password }),
  });
  assert.equal(approved.status, 302);
  const callback = approved.headers.get('location')!;
  assert.ok(callback.startsWith(`${a.ctx.config.publicUrl}/relay/lastfm/callback?`), callback);
  return { callback, cookie: cookie.split(';')[0]! };
}

/** The callback opened by a browser holding `cookie` (none: another browser). */
export const openLastfmCallback = (callback: string, cookie?: string) => jsonRequest<any>(callback, 'GET', cookie ? { headers: { cookie } } : {});

/**
 * Moves the relay's clock on past every wait: each queued row's backoff, each target's hold and each
 * lease end now. Tests wait this way rather than sleeping past short backoffs, which on a loaded
 * machine run out between two statements of one delivery pass and let it retry more than the test meant.
 */
export async function timePasses(ctx: AppContext): Promise<void> {
  await sql`update relay_outbox set next_attempt_at = least(next_attempt_at, now()), lease_until = case when lease_until is null then null else now() - interval '1 millisecond' end where state = 'queued'`.execute(
    ctx.db,
  );
  await sql`update relay_targets set hold_until = null where hold_until is not null`.execute(ctx.db);
}
