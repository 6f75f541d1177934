/** Calls the plain routes (sign-in, sessions, access tokens) with the server's own types. */
import { forgetStreamUrls } from '../player/stream-urls.ts';
import type { RouteCalls, RouteKey } from '../../../src/app/client-types.ts';
import { requestJson } from './xrpc.ts';
import { setSession } from './session.ts';

/** `key` is "METHOD /path"; `:name` segments are filled from `pathParams`. */
export function route<K extends RouteKey>(
  key: K,
  call: { body?: RouteCalls[K]['body']; pathParams?: Record<string, string> } = {},
): Promise<RouteCalls[K]['output']> {
  const [method, pattern] = key.split(' ') as [string, string];
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(call.pathParams?.[name] ?? ''));
  return requestJson(method, path, call.body);
}

export async function signIn(identifier: string, password: string): Promise<void> {
  const session = await route('POST /auth/login', { body: { identifier, password } });
  setSession({ token: session.token, handle: session.handle, did: session.did });
}

export async function signUp(handle: string, password: string): Promise<void> {
  const session = await route('POST /auth/signup', { body: { handle, password } });
  setSession({ token: session.token, handle: session.handle, did: session.did });
}

/** Ends the session on the server, then forgets it here (even when the server already had). */
export async function signOut(): Promise<void> {
  // The player's stream URLs were signed for this user: they go with them.
  forgetStreamUrls();
  try {
    await route('POST /auth/logout');
  } finally {
    setSession(null);
  }
}
