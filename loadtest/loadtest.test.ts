import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { parseLoadTestArgs, UsageError } from './args.ts';
import type { MeasuredScenario } from './measure.ts';
import type { LoadTestReport } from './report.ts';
import { SCENARIOS } from './scenarios.ts';

const RUNNER = fileURLToPath(new URL('./run.ts', import.meta.url));

/** The report of `npm run loadtest -- --duration 1 --connections 4 --json` with `env` added; fails the test on a non-zero exit. */
async function loadTest(env: NodeJS.ProcessEnv): Promise<LoadTestReport> {
  const args = ['--import', 'tsx', RUNNER, '--duration', '1', '--connections', '4', '--json'];
  const { DATABASE_URL: _, ...inherited } = process.env;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { env: { ...inherited, ...env } });
    return JSON.parse(stdout) as LoadTestReport;
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    assert.fail(`the load test exited with ${failed.code}:\n${failed.stderr}\n${failed.stdout}`);
  }
}

/** A fresh PostgreSQL database on TEST_DATABASE_URL's server for `use`, dropped after. */
async function withFreshDatabase(url: string, use: (databaseUrl: string) => Promise<void>): Promise<void> {
  const name = `earshot_loadtest_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const databaseUrl = new URL(url);
    databaseUrl.pathname = `/${name}`;
    await use(databaseUrl.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function checkReport(report: LoadTestReport, storage: RegExp): void {
  assert.equal(report.passed, true);
  assert.equal(report.durationSeconds, 1);
  assert.equal(report.connections, 4);
  assert.match(report.server.apiUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(report.server.storage, storage);
  assert.deepEqual(
    report.scenarios.map((scenario) => scenario.name),
    SCENARIOS.map((scenario) => scenario.name),
  );
  for (const scenario of report.scenarios as MeasuredScenario[]) {
    assert.equal('skipped' in scenario, false, `${scenario.name} ran`);
    assert.ok(scenario.ok > 0, `${scenario.name} had 2xx answers`);
    assert.ok(scenario.requestsPerSecond > 0 && scenario.p99Ms >= scenario.p50Ms, `${scenario.name} has figures`);
    assert.deepEqual(
      { failed: scenario.failedStatuses, errors: scenario.errors, wrongBodies: scenario.wrongBodies },
      { failed: {}, errors: 0, wrongBodies: 0 },
      scenario.name,
    );
    if (process.platform === 'linux') assert.ok((scenario.peakRssKiB ?? 0) > 0, `${scenario.name} read the server's RSS`);
  }
}

// The backends' runs side by side: most of each is a fresh server creating its database.
describe('npm run loadtest', { timeout: 240_000, concurrency: true }, () => {
  it('runs every scenario on a server of its own, on PGlite, without a failed answer', async () => {
    checkReport(await loadTest({}), /PGlite/);
  });

  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  if (testDatabaseUrl) {
    it('does so on PostgreSQL (DATABASE_URL)', async () => {
      await withFreshDatabase(testDatabaseUrl, async (DATABASE_URL) => checkReport(await loadTest({ DATABASE_URL }), /PostgreSQL/));
    });
  }

  it('loads only servers on this machine', () => {
    for (const url of ['http://10.0.0.1:8000', 'http://example.com', 'http://[2001:db8::1]:8000', 'https://127.0.0.1:8000']) {
      assert.throws(() => parseLoadTestArgs(['--url', url]), UsageError, url);
    }
    for (const url of ['http://127.0.0.1:8000/', 'http://localhost:8000', 'http://[::1]:8000']) {
      assert.equal(parseLoadTestArgs(['--url', url]).url, url.replace(/\/$/, ''));
    }
    assert.throws(() => parseLoadTestArgs(['--pid', '1']), /--url/);
    assert.throws(() => parseLoadTestArgs(['--duration', '0']), /--duration/);
  });
});
