/** Counts requests per key in fixed windows; state is per process, which suits one self-hosted server. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one request; false once the key has used up its current window. */
  take(key: string, now = Date.now()): boolean {
    const window = this.windows.get(key);
    if (window && now - window.start < this.windowMs) return ++window.count <= this.limit;
    this.forgetExpired(now);
    this.windows.set(key, { start: now, count: 1 });
    return this.limit >= 1;
  }

  private forgetExpired(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

/** Last.fm's terms: at most 5 requests a second per client, averaged over 5 minutes. */
export const lastfmRateLimiter = new RateLimiter(5 * 300, 5 * 60 * 1000);
