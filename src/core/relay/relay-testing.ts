/**
 * A loopback HTTP proxy in front of a target (in the tests, a second Earshot): it records what
 * passes, so a test can tell a play was sent exactly once, and can be switched off to stand for
 * the target being down (connections are dropped).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayProxy {
  url: string;
  /** Each request passed on: "METHOD /path" and its body. */
  readonly seen: { line: string; body: string }[];
  down: boolean;
  close(): Promise<void>;
}

export async function startRelayProxy(upstream: string): Promise<RelayProxy> {
  const seen: RelayProxy['seen'] = [];
  const proxy = { seen, down: false } as RelayProxy;
  const server = http.createServer(async (request, response) => {
    if (proxy.down) return void request.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    seen.push({ line: `${request.method} ${request.url}`, body });
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
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
