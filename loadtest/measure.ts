import autocannon from 'autocannon';
import { watchPeakRss } from './rss.ts';
import type { Scenario } from './scenarios.ts';
import type { SeededServer } from './seed.ts';

/** The answer that asks a client to slow down (the heavy-read limit, api/heavy-limit.ts): counted apart, not a failure. */
const RATE_LIMITED = 429;

export interface MeasuredScenario {
  name: string;
  /** 2xx answers per second. */
  requestsPerSecond: number;
  /** Latency of the 2xx answers, in ms. */
  p50Ms: number;
  p99Ms: number;
  ok: number;
  rateLimited: number;
  /** Other non-2xx answers, by status. */
  failedStatuses: Record<string, number>;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Requests unanswered after autocannon's 10 s. */
  timeouts: number;
  /** 2xx answers whose body was wrong (a Subsonic failure document instead of audio). */
  wrongBodies: number;
  /** The server's peak VmRSS while the scenario ran, in KiB; null when unknown. */
  peakRssKiB: number | null;
  /** What the check after the load found wrong (scenarios.ts verify). */
  problem?: string;
}

export interface SkippedScenario {
  name: string;
  /** Why it did not run on this server. */
  skipped: string;
}

export type ScenarioResult = MeasuredScenario | SkippedScenario;

export interface LoadSettings {
  durationSeconds: number;
  connections: number;
  /** The server's process, to sample its RSS. */
  pid: number | undefined;
}

function failedStatuses(result: autocannon.Result): Record<string, number> {
  const failed: Record<string, number> = {};
  for (const [status, { count = 0 }] of Object.entries(result.statusCodeStats ?? {})) {
    if (!status.startsWith('2') && Number(status) !== RATE_LIMITED) failed[status] = count;
  }
  return failed;
}

export async function runScenario(scenario: Scenario, server: SeededServer, settings: LoadSettings): Promise<ScenarioResult> {
  const load = scenario.load(server);
  if ('skipped' in load) return { name: scenario.name, skipped: load.skipped };
  const rss = watchPeakRss(settings.pid);
  const result = await autocannon({
    ...load,
    connections: settings.connections,
    duration: settings.durationSeconds,
    // Latency percentiles of the answers that did the work, not of fast refusals.
    excludeErrorStats: true,
  });
  const peakRssKiB = rss.stop();
  const problem = await scenario.verify?.(server, { sent: result.requests.sent, ok: result['2xx'] });
  return {
    name: scenario.name,
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    rateLimited: result.statusCodeStats?.[`${RATE_LIMITED}`]?.count ?? 0,
    failedStatuses: failedStatuses(result),
    errors: result.errors,
    timeouts: result.timeouts,
    wrongBodies: result.mismatches,
    peakRssKiB,
    ...(problem && { problem }),
  };
}

/** Whether a scenario's answers were all 2xx or 429 and right, with no connection errors and nothing wrong after. */
export function passed(result: ScenarioResult): boolean {
  if ('skipped' in result) return true;
  return result.errors === 0 && result.wrongBodies === 0 && Object.keys(result.failedStatuses).length === 0 && result.problem === undefined;
}
