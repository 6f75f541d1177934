/**
 * One signed POST to a webhook. The URL is a user's, so the request is bounded the way avatar
 * fetches are: the addresses its host resolves to are checked where the connection is made
 * (private ones refused unless the operator allows them), redirects are not followed, an answer
 * is read only as far as the log keeps it, and there is a deadline.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalHostProblem, NOT_PUBLIC_CODE } from '../../toolkit/public-address.ts';
import { retryAfterSeconds } from '../../toolkit/retry.ts';

const DEADLINE_MS = 10_000;
/** How much of an answer the log keeps. */
export const RESPONSE_EXCERPT_CHARS = 300;

/**
 * The Earshot-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the
 * hook's secret. The timestamp is signed with the body, so a captured delivery cannot be replayed
 * later under a new timestamp; receivers reject old ones.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export interface PostOutcome {
  /** The receiver's status; null when none came (refused, unreachable, timed out). */
  status: number | null;
  /** The start of its answer, or why there was none. */
  response: string;
  durationMs: number;
  retryAfterSeconds: number | undefined;
}

export interface SignedPost {
  url: string;
  secret: string;
  event: string;
  deliveryId: string;
  body: string;
  allowPrivate: boolean;
}

/** Why no answer came, in words for the delivery log, without the internals of the failure. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === NOT_PUBLIC_CODE) return (error as Error).message;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name is not known';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ABORT_ERR' || (error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError')
    return `no answer within ${DEADLINE_MS / 1000} s`;
  return 'the host could not be reached';
}

export async function postSigned(post: SignedPost): Promise<PostOutcome> {
  const started = performance.now();
  const url = new URL(post.url);
  const literal = literalHostProblem(url, post.allowPrivate);
  if (literal) return { status: null, response: literal, durationMs: 0, retryAfterSeconds: undefined };
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Earshot-Webhooks',
    'earshot-event': post.event,
    'earshot-delivery': post.deliveryId,
    'earshot-signature': signatureHeader(post.secret, post.body, Math.floor(Date.now() / 1000)),
  };
  const client = url.protocol === 'https:' ? https : http;
  try {
    const answer = await new Promise<Omit<PostOutcome, 'durationMs'>>((resolve, reject) => {
      const request = client.request(
        url,
        { method: 'POST', headers, lookup: guardedLookup(post.allowPrivate) as never, signal: AbortSignal.timeout(DEADLINE_MS) },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
            // Enough for the log: the rest is not read.
            if (text.length >= RESPONSE_EXCERPT_CHARS) response.destroy();
          });
          const done = () =>
            resolve({
              status: response.statusCode ?? 0,
              response: text.slice(0, RESPONSE_EXCERPT_CHARS),
              retryAfterSeconds: retryAfterSeconds(response.headers['retry-after']),
            });
          response.on('end', done);
          response.on('close', done);
        },
      );
      request.on('error', reject);
      request.end(post.body);
    });
    return { ...answer, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: null, response: reason(error), durationMs: Math.round(performance.now() - started), retryAfterSeconds: undefined };
  }
}
