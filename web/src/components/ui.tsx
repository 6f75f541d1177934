/** Small shared pieces: loading and error states in words, empty states that say what to do. */
import type { ReactNode } from 'react';
import { XrpcFailure } from '../api/xrpc.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

/** An error as the server explained it. */
export function ErrorNote({ error }: { error: unknown }) {
  const message = error instanceof XrpcFailure ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
