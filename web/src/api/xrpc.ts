/**
 * Calls XRPC operations by nsid with the server's own types (src/api/client-types.ts, derived
 * from the operation declarations): parameters, bodies and answers are checked at compile time,
 * and a failure arrives as an XrpcFailure carrying the server's error name and message.
 */
import type { ProcedureNsid, QueryNsid, XrpcErrorName, XrpcOperations } from '../../../src/app/client-types.ts';
import { currentToken } from './session.ts';

export type { ProcedureNsid, QueryNsid, XrpcOperations };
export type Output<N extends keyof XrpcOperations> = XrpcOperations[N]['output'];
export type Params<N extends keyof XrpcOperations> = XrpcOperations[N]['params'];
export type Input<N extends keyof XrpcOperations> = XrpcOperations[N]['input'];

/** An answer other than success, in words: `error` is the server's name for it, `message` says why. */
export class XrpcFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: XrpcErrorName | 'NetworkError',
    message: string,
  ) {
    super(message);
  }
}

function search(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * fetch with the signed-in user's token; the answer's JSON, or an XrpcFailure. `keepalive` lets
 * the request outlive the page (sendBeacon would too, but cannot carry the token).
 */
export async function requestJson<T>(method: string, path: string, body?: unknown, keepalive = false): Promise<T> {
  const token = currentToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      ...(keepalive && { keepalive }),
    });
  } catch {
    throw new XrpcFailure(0, 'NetworkError', 'The server could not be reached; check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (!response.ok) {
    const failure = (parsed ?? {}) as { error?: XrpcErrorName; message?: string };
    throw new XrpcFailure(
      response.status,
      failure.error ?? 'InternalServerError',
      failure.message ?? `The server answered ${response.status} ${response.statusText}`,
    );
  }
  return parsed as T;
}

/** A query (GET): parameters in the URL. */
export function query<N extends QueryNsid>(nsid: N, params: Params<N>): Promise<Output<N>> {
  return requestJson('GET', `/xrpc/${nsid}${search(params as Record<string, unknown>)}`);
}

/** A procedure (POST): the input as the JSON body; `keepalive` for one sent as the page goes. */
export function procedure<N extends ProcedureNsid>(nsid: N, input: Input<N>, keepalive = false): Promise<Output<N>> {
  return requestJson('POST', `/xrpc/${nsid}`, input ?? {}, keepalive);
}
