/** How long a probe or a scrape waits for the database: under a scraper's or an orchestrator's own timeout. */
export const DATABASE_DEADLINE_MS = 3_000;

/**
 * `work`'s answer, or a rejection once `ms` have passed. A PostgreSQL host that drops packets
 * leaves a connection attempt hanging for minutes; a readiness probe or a scrape must answer
 * long before that.
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
