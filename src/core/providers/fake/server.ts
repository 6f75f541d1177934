/**
 * A loopback HTTP server for a fake provider (tests, and `earshot fake-providers` for trying
 * connections by hand): plain node:http, so a fake shares nothing with the server under test.
 * Failures can be injected for the next matching request: a status (429, 5xx) or a dropped
 * connection.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>;

export type InjectedFailure = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

export interface FakeServer {
  url: string;
  /** The next request whose path starts with `pathPrefix` (any request when absent) fails this way, `times` times. */
  failNext(failure: InjectedFailure, pathPrefix?: string, times?: number): void;
  /** Every request served, as "METHOD /path?query", oldest first. */
  readonly requests: string[];
  close(): Promise<void>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The Bearer token of a request, or null. */
export function bearerToken(request: IncomingMessage): string | null {
  const match = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

export async function startFakeServer(handler: FakeHandler, port = 0): Promise<FakeServer> {
  const failures: { failure: InjectedFailure; prefix: string; times: number }[] = [];
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const index = failures.findIndex((entry) => url.pathname.startsWith(entry.prefix));
    if (index >= 0) {
      const entry = failures[index]!;
      if (--entry.times === 0) failures.splice(index, 1);
      if (entry.failure === 'drop') return void request.socket.destroy();
      return sendJson(
        response,
        entry.failure.status,
        entry.failure.body ?? { error: { status: entry.failure.status, message: 'injected failure' } },
        entry.failure.headers,
      );
    }
    handler(request, response, url).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { status: 500, message: String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failNext(failure, pathPrefix = '/', times = 1) {
      failures.push({ failure, prefix: pathPrefix, times });
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
