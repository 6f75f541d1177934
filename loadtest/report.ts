import { printTable } from '../src/cli/command.ts';
import { passed, type MeasuredScenario, type ScenarioResult } from './measure.ts';

export interface LoadTestReport {
  date: string;
  server: {
    apiUrl: string;
    scrobblerUrl: string;
    /** What it stores in; "unknown" for a server given with --url. */
    storage: string;
    pid: number | null;
    /** Its VmRSS once seeded, before the first scenario, in KiB; null when unknown. */
    rssBeforeKiB: number | null;
  };
  durationSeconds: number;
  connections: number;
  scenarios: ScenarioResult[];
  /** No scenario had connection errors, wrong answers, non-2xx answers other than 429 or a failed check after. */
  passed: boolean;
}

export function buildReport(fields: Omit<LoadTestReport, 'date' | 'passed'>): LoadTestReport {
  return { date: new Date().toISOString(), ...fields, passed: fields.scenarios.every(passed) };
}

const mib = (kib: number | null) => (kib === null ? 'unknown' : (kib / 1024).toFixed(1));

/** Non-2xx answers other than 429, wrong bodies and a failed check, as "500×3, wrong body×1"; "0" when none. */
function failures(result: MeasuredScenario): string {
  const parts = Object.entries(result.failedStatuses).map(([status, count]) => `${status}×${count}`);
  if (result.wrongBodies > 0) parts.push(`wrong body×${result.wrongBodies}`);
  if (result.problem) parts.push('check after (below)');
  return parts.join(', ') || '0';
}

function row(result: ScenarioResult): Record<string, string> {
  if ('skipped' in result) return { scenario: result.name, 'req/s': 'skipped' };
  return {
    scenario: result.name,
    'req/s': result.requestsPerSecond.toFixed(0),
    'p50 ms': String(result.p50Ms),
    'p99 ms': String(result.p99Ms),
    '2xx': String(result.ok),
    '429': String(result.rateLimited),
    failed: failures(result),
    errors: result.timeouts > 0 ? `${result.errors} (${result.timeouts} timed out)` : String(result.errors),
    'peak RSS MiB': mib(result.peakRssKiB),
  };
}

export function printReport(report: LoadTestReport): void {
  const { server } = report;
  console.log(`Earshot load test, ${report.date}: ${report.connections} connections, ${report.durationSeconds} s a scenario`);
  console.log(`Server: ${server.apiUrl} (scrobbler ${server.scrobblerUrl}), storage: ${server.storage}, RSS before the load: ${mib(server.rssBeforeKiB)} MiB`);
  console.log('req/s and latencies count 2xx answers; 429 asks the client to slow down (the heavy-read limit) and is not a failure.\n');
  printTable(report.scenarios.map(row), ['scenario', 'req/s', 'p50 ms', 'p99 ms', '2xx', '429', 'failed', 'errors', 'peak RSS MiB']);
  for (const result of report.scenarios) {
    if ('skipped' in result) console.log(`${result.name} skipped: ${result.skipped}`);
    else if (result.problem) console.log(`${result.name}, check after the load: ${result.problem}`);
  }
  console.log(
    report.passed ? '\nPassed: no errors and no failed answers.' : '\nFAILED: a scenario had connection errors or failed answers (see "failed" and "errors").',
  );
}
