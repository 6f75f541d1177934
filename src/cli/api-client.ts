import { CliError } from './errors.ts';
import { readCredentials, type StoredCredentials } from './credentials.ts';

export interface ApiClient {
  server: string;
  call<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

export function serverUrl(explicit: string | undefined, stored: StoredCredentials | null): string {
  const port = process.env.PORT || '8000';
  return (explicit || process.env.EARSHOT_URL || stored?.server || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
}

/** Sends one JSON request; non-2xx answers become a CliError carrying the server's message. */
export async function requestJson<T>(server: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${server}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new CliError(`cannot reach ${server} (${(error as Error).cause ?? (error as Error).message}); is \`earshot serve\` running?`);
  }
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as T & { error?: string; message?: string }) : ({} as T & { error?: string; message?: string });
  if (!response.ok) {
    const hint = response.status === 401 && token ? ' (run `earshot login <handle>` again)' : '';
    throw new CliError(`${parsed.error ?? response.status}: ${parsed.message ?? response.statusText}${hint}`);
  }
  return parsed;
}

/** A client authenticated as the logged-in user. */
export function authenticatedClient(explicitServer: string | undefined): ApiClient {
  const stored = readCredentials();
  const token = process.env.EARSHOT_TOKEN || stored?.token;
  if (!token) throw new CliError('not logged in: run `earshot login <handle>` first (or set EARSHOT_TOKEN)');
  const server = serverUrl(explicitServer, stored);
  return { server, call: (method, path, body) => requestJson(server, method, path, body, token) };
}
