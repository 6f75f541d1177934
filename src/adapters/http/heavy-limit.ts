import { XrpcError } from '../../toolkit/errors.ts';

/**
 * Heavy public reads one client may have in flight at once. Identical ones
 * share a computation, but varying the parameters (years, time zones) makes
 * each one a new computation: without a cap, one anonymous client could queue
 * hundreds and hold every other client's heavy reads back behind them.
 */
export const MAX_HEAVY_READS_PER_CLIENT = 4;

/** Seconds a refused client is asked to wait: about one Wrapped's computation. */
export const HEAVY_RETRY_AFTER_SECONDS = 1;

/** Counts each client's heavy reads in flight; one per host. */
export class HeavyReadLimiter {
  readonly #inFlight = new Map<string, number>();

  /** Admits one more heavy read for `client`, or throws 429; call the returned function when it is done. */
  enter(client: string): () => void {
    const current = this.#inFlight.get(client) ?? 0;
    if (current >= MAX_HEAVY_READS_PER_CLIENT) {
      throw new XrpcError(
        429,
        'RateLimitExceeded',
        `at most ${MAX_HEAVY_READS_PER_CLIENT} statistics requests at a time per client; retry after ${HEAVY_RETRY_AFTER_SECONDS} s`,
      );
    }
    this.#inFlight.set(client, current + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = this.#inFlight.get(client)! - 1;
      if (left === 0) this.#inFlight.delete(client);
      else this.#inFlight.set(client, left);
    };
  }
}
