/**
 * Who is signed in: the sign-in token kept in this browser, and the calls that start and end a
 * server session. Signing out ends the session on the server (POST /auth/logout), not only here.
 */
import { useSyncExternalStore } from 'react';

export interface SignedIn {
  token: string;
  handle: string;
  did: string;
}

const KEY = 'earshot.session';
const listeners = new Set<() => void>();

function read(): SignedIn | null {
  try {
    const stored = localStorage.getItem(KEY);
    return stored ? (JSON.parse(stored) as SignedIn) : null;
  } catch {
    return null;
  }
}

let current = typeof localStorage === 'undefined' ? null : read();

export const currentToken = () => current?.token;

export function setSession(session: SignedIn | null): void {
  current = session;
  if (session) localStorage.setItem(KEY, JSON.stringify(session));
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

/** The signed-in user, re-rendering when it changes. */
export function useSession(): SignedIn | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
