/** Small shared pieces: loading and error states in words, empty states that say what to do. */
import type { ReactNode } from 'react';
import { describeFailure } from '../api/error-text.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}

/** An error as the server explained it, in plain words (api/error-text.ts). */
export function ErrorNote({ error }: { error: unknown }) {
  return (
    <p className="error" role="alert">
      {describeFailure(error).message}
    </p>
  );
}

/** A page that could not show its `what` ("song"): a heading, what went wrong, and what to do. */
export function PageError({ error, what, children }: { error: unknown; what: string; children?: ReactNode }) {
  const { heading, message } = describeFailure(error, what);
  return (
    <section>
      <h1>{heading}</h1>
      <p className="error" role="alert">
        {message}
      </p>
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
