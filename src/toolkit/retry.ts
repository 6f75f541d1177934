/** Retrying a remote that failed: shared by the outboxes that deliver to other services (core/relay, core/webhooks). */

export interface Backoff {
  /** The first retry's delay; each next one doubles, up to backoffMaxMs, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The retry delay after `attempts` failed tries: doubling, capped, and spread by jitter so retries do not arrive together. */
export function backoffMs(attempts: number, options: Backoff): number {
  const full = Math.min(options.backoffBaseMs * 2 ** Math.max(0, attempts - 1), options.backoffMaxMs);
  return Math.round(full * (0.5 + Math.random() / 2));
}

/** A Retry-After header (seconds, or an HTTP date) in whole seconds from now; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
