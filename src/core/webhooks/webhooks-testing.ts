/**
 * A webhook receiver on loopback that checks each delivery as a receiver should: the HMAC
 * recomputed over the timestamp and the raw body, compared in constant time, and a timestamp
 * older than five minutes refused. It answers from a script of responses (then 200).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Whether the signature checked out; a receiver answers 401 when not. */
  verified: boolean;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookReceiver {
  url: string;
  readonly received: ReceivedDelivery[];
  /** Answers for the next deliveries, in order. */
  script: Answer[];
  /** The secret deliveries must be signed with. */
  secret: string;
  close(): Promise<void>;
}

const TOLERANCE_SECONDS = 300;

/** A receiver's check of Earshot-Signature: `t=<unix>,v1=<hex>` over "<t>.<raw body>". */
export function verifySignature(secret: string, header: string | undefined, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(t) || !given || Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver = { received: [], script: [], secret: '' } as unknown as WebhookReceiver;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const verified = verifySignature(receiver.secret, request.headers['earshot-signature'] as string | undefined, raw);
    receiver.received.push({ headers: request.headers, body: JSON.parse(raw) as Record<string, unknown>, verified });
    if (!verified) return void response.writeHead(401).end('bad signature');
    const answer = receiver.script.shift() ?? { status: 200, body: 'ok' };
    response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/**
 * Moves the webhook sender's clock on past every wait (each queued delivery's backoff and lease end
 * now), so tests never sleep past short backoffs, which a loaded machine can outrun within one pass.
 */
export async function timePasses(ctx: AppContext): Promise<void> {
  await sql`update webhook_deliveries set next_attempt_at = least(next_attempt_at, now()), lease_until = case when lease_until is null then null else now() - interval '1 millisecond' end where state = 'queued'`.execute(
    ctx.db,
  );
}
