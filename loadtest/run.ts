/**
 * `npm run loadtest`: loads a server on this machine with autocannon, scenario after scenario,
 * and reports req/s, p50/p99, failures and the server's RSS. Exits 1 when a scenario had errors
 * or failed answers, so it also serves as a smoke test; 2 on bad arguments.
 */
import { requestJson } from '../src/cli/api-client.ts';
import { loopbackUrl, parseLoadTestArgs, USAGE, UsageError, type LoadTestOptions } from './args.ts';
import { runScenario, type ScenarioResult } from './measure.ts';
import { buildReport, printReport, type LoadTestReport } from './report.ts';
import { rssKiB } from './rss.ts';
import { SCENARIOS } from './scenarios.ts';
import { seedServer } from './seed.ts';
import { MUSIC_FILES, startServer, type StartedServer } from './server.ts';

interface Target {
  apiUrl: string;
  scrobblerUrl: string;
  pid: number | undefined;
  storage: string;
  /** Audio files to wait for the first scan of; undefined for a server the load test did not start. */
  musicFiles: number | undefined;
}

/** A running server's scrobbler host: as given, else as the server names it, which must be on loopback too. */
async function scrobblerUrlOf(options: LoadTestOptions, apiUrl: string): Promise<string> {
  if (options.scrobblerUrl) return options.scrobblerUrl;
  const info = await requestJson<{ scrobblerUrl: string }>(apiUrl, 'GET', '/xrpc/app.svc.server.getInfo');
  try {
    return loopbackUrl('scrobbler-url', info.scrobblerUrl);
  } catch (error) {
    throw new UsageError(
      `the server names its scrobbler host ${info.scrobblerUrl}: ${(error as Error).message}; pass its loopback address with --scrobbler-url`,
    );
  }
}

async function loadTest(options: LoadTestOptions, target: Target): Promise<LoadTestReport> {
  // Progress goes to stderr, and not at all with --json, so stdout holds only the report.
  const log = (line: string) => {
    if (!options.json) console.error(line);
  };
  log(`Seeding ${target.apiUrl} through its APIs…`);
  const seeded = await seedServer({ apiUrl: target.apiUrl, scrobblerUrl: target.scrobblerUrl, musicFiles: target.musicFiles });
  const rssBeforeKiB = target.pid === undefined ? null : rssKiB(target.pid);
  const scenarios: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    log(`${scenario.name}: ${options.durationSeconds} s, ${options.connections} connections…`);
    scenarios.push(await runScenario(scenario, seeded, { ...options, pid: target.pid }));
  }
  return buildReport({
    server: { apiUrl: target.apiUrl, scrobblerUrl: target.scrobblerUrl, storage: target.storage, pid: target.pid ?? null, rssBeforeKiB },
    durationSeconds: options.durationSeconds,
    connections: options.connections,
    scenarios,
  });
}

/** The report, on a server started for it or the one given with --url. */
async function run(options: LoadTestOptions): Promise<LoadTestReport> {
  if (options.url) {
    const target = {
      apiUrl: options.url,
      scrobblerUrl: await scrobblerUrlOf(options, options.url),
      pid: options.pid,
      storage: 'unknown',
      musicFiles: undefined,
    };
    return loadTest(options, target);
  }
  const server: StartedServer = await startServer();
  // Ctrl-C reaches the server too, which stops on it; the temporary folder goes with it.
  process.once('SIGINT', () => void server.stop().finally(() => process.exit(130)));
  try {
    return await loadTest(options, { ...server, musicFiles: MUSIC_FILES });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\nThe server's last output:\n${server.recentOutput()}`, { cause: error });
  } finally {
    await server.stop();
  }
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  try {
    const options = parseLoadTestArgs(args);
    const report = await run(options);
    if (options.json) console.log(JSON.stringify(report, null, 2));
    else printReport(report);
    return report.passed ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`loadtest: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`loadtest: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
