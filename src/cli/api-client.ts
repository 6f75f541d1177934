import os from 'node:os';
import { CliError } from './errors.ts';
import { readCredentials, type StoredCredentials } from './credentials.ts';

export interface ApiClient {
  server: string;
  // biome-ignore lint/suspicious/noExplicitAny: the answer is JSON whose shape each command states where it reads it
  call<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A GET whose answer is a file: the response, to stream its body. */
  download(path: string): Promise<Response>;
}

/** A non-2xx answer from the server, with its status. */
export class ApiError extends CliError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export function serverUrl(explicit: string | undefined, stored: StoredCredentials | null): string {
  const port = process.env.PORT || '8000';
  return (explicit || process.env.EARSHOT_URL || stored?.server || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
}

const USER_AGENT = `earshot CLI on ${os.hostname()}`;

async function send(server: string, method: string, path: string, body: unknown, token: string | undefined): Promise<Response> {
  try {
    return await fetch(`${server}${path}`, {
      method,
      headers: {
        // Names this machine in the server's list of sign-in sessions.
        'user-agent': USER_AGENT,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new CliError(`cannot reach ${server} (${(error as Error).cause ?? (error as Error).message}); is \`earshot serve\` running?`);
  }
}

/** A non-2xx answer as an ApiError carrying the server's message. */
function failure(response: Response, text: string, token: string | undefined): ApiError {
  let parsed: { error?: string; message?: string } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // Not the API's error shape (a proxy's page): the status says enough.
  }
  const hint = response.status === 401 && token ? ' (run `earshot login <handle>` again)' : '';
  return new ApiError(`${parsed.error ?? response.status}: ${parsed.message ?? response.statusText}${hint}`, response.status);
}

/** Sends one JSON request; non-2xx answers become a CliError carrying the server's message. */
export async function requestJson<T>(server: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await send(server, method, path, body, token);
  const text = await response.text();
  if (!response.ok) throw failure(response, text, token);
  return (text ? JSON.parse(text) : {}) as T;
}

async function requestFile(server: string, path: string, token: string): Promise<Response> {
  const response = await send(server, 'GET', path, undefined, token);
  if (!response.ok) throw failure(response, await response.text(), token);
  return response;
}

/** A client authenticated as the logged-in user. */
export function authenticatedClient(explicitServer: string | undefined): ApiClient {
  const stored = readCredentials();
  const token = process.env.EARSHOT_TOKEN || stored?.token;
  if (!token) throw new CliError('not logged in: run `earshot login <handle>` first (or set EARSHOT_TOKEN)');
  const server = serverUrl(explicitServer, stored);
  return { server, call: (method, path, body) => requestJson(server, method, path, body, token), download: (path) => requestFile(server, path, token) };
}
