import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrationFiles } from '../../toolkit/db/migrate.ts';
import { startBackgroundJobs } from '../../toolkit/background.ts';
import { describeWithApp, jsonRequest, startTestApp, oneBackend, testBackends, type TestApp } from '../testing.ts';
import { Metrics } from '../../core/ops/metrics.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/y;
  while (pair.lastIndex < text.length) {
    const match = pair.exec(text);
    assert.ok(match, `malformed labels: {${text}}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_escape, char: string) => (char === 'n' ? '\n' : char));
  }
  return labels;
}

/**
 * The samples of a Prometheus text exposition (format 0.0.4), failing on any line the format does
 * not allow and on a sample whose family has no TYPE line before it.
 */
function parsePrometheusText(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || new RegExp(`^# HELP ${METRIC_NAME} `).test(line)) continue;
    const type = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      typed.add(type[1]!);
      continue;
    }
    // Prometheus reads NaN in any case; prom-client writes it "Nan".
    const sample = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (NaN|Nan|[+-]Inf|-?[0-9.]+(?:e[+-]?[0-9]+)?)(?: -?[0-9]+)?$`).exec(line);
    assert.ok(sample, `not a Prometheus sample line: ${line}`);
    const [, name, labels, value] = sample;
    assert.ok(typed.has(name!) || typed.has(name!.replace(/_(bucket|sum|count)$/, '')), `${name} has no TYPE line`);
    samples.push({
      name: name!,
      labels: parseLabels(labels ?? ''),
      value: value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : Number(value!.replace('Nan', 'NaN')),
    });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`, or undefined. */
function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`, { headers });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

const hostsOf = (app: TestApp) => [app.apiUrl, app.scrobblerUrl];

async function listenBrainzKey(app: TestApp, handle: string): Promise<{ key: string; token: string }> {
  const { token } = await app.signup(handle);
  const created = await app.procedure('app.svc.apikey.createApikey', { name: 'ListenBrainz client' }, token);
  return { key: created.body.key, token };
}

const listen = { listened_at: 1_700_000_000, track_metadata: { artist_name: 'Mariza', track_name: 'Primavera' } };

describeWithApp('health, readiness and metrics', (app) => {
  test('/health and /ready answer on both hosts', async () => {
    for (const url of hostsOf(app())) {
      assert.deepEqual((await jsonRequest(`${url}/health`, 'GET')).body, { status: 'ok' });
      const ready = await jsonRequest(`${url}/ready`, 'GET');
      assert.deepEqual([ready.status, ready.body], [200, { status: 'ready' }]);
    }
  });

  test('/ready is 503 NotReady naming the migration the database lacks, and ready again once it is back', async () => {
    const last = migrationFiles().at(-1)!;
    await sql`delete from schema_migrations where version = ${last}`.execute(app().ctx.db);
    try {
      for (const url of hostsOf(app())) {
        const ready = await jsonRequest<{ error: string; message: string }>(`${url}/ready`, 'GET');
        assert.equal(ready.status, 503);
        assert.equal(ready.body.error, 'NotReady');
        assert.equal(ready.body.message, `1 migration is pending (${last}): restart the server to apply them`);
      }
    } finally {
      await sql`insert into schema_migrations (version) values (${last})`.execute(app().ctx.db);
    }
    assert.equal((await jsonRequest(`${app().apiUrl}/ready`, 'GET')).status, 200);
  });

  test('a ListenBrainz submission counts its plays by protocol and outcome, and its request under the route pattern', async () => {
    const { key } = await listenBrainzKey(app(), 'metrics-lb');
    for (let i = 0; i < 2; i++) {
      const submitted = await jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
        body: { listen_type: 'single', payload: [listen] },
        headers: { authorization: `Token ${key}` },
      });
      assert.equal(submitted.status, 200);
    }
    assert.equal((await jsonRequest(`${app().scrobblerUrl}/1/user/metrics-lb/listens?count=5`, 'GET')).status, 200);
    assert.equal((await jsonRequest(`${app().apiUrl}/no/such/page.json?id=12345`, 'GET')).status, 404);

    // Both hosts of a process answer from one registry.
    for (const url of hostsOf(app())) {
      const samples = await scrape(url);
      assert.equal(sampleValue(samples, 'earshot_plays_ingested_total', { protocol: 'listenbrainz', outcome: 'stored' }), 1);
      assert.equal(sampleValue(samples, 'earshot_plays_ingested_total', { protocol: 'listenbrainz', outcome: 'duplicate' }), 1);
      const submissions = { host: 'scrobbler', method: 'POST', route: '/1/submit-listens', status: '200' };
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_count', submissions), 2);
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_bucket', { ...submissions, le: '+Inf' }), 2);
      const reads = { host: 'scrobbler', method: 'GET', route: '/1/user/:user_name/listens', status: '200' };
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_count', reads), 1);
      const signups = { host: 'api', method: 'POST', route: '/auth/signup', status: '201' };
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_count', signups), 1);
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_count', { host: 'api', route: '(unmatched)', status: '404' }), 1);
      const routes = new Set(samples.flatMap((sample) => (sample.labels.route === undefined ? [] : [sample.labels.route])));
      assert.ok(![...routes].some((route) => /metrics-lb|\?|12345|no\/such/.test(route)), `raw URLs in route labels: ${[...routes].join(' ')}`);
    }
  });

  test('an import batch counts its plays under import:<format> and the import as running until complete', async () => {
    const { token } = await app().signup('metrics-import');
    const batch = {
      fingerprint: 'b'.repeat(64),
      format: 'listenbrainz',
      from: 0,
      records: 3,
      complete: false,
      listens: [1, 2].map((n) => ({ artist: 'Mariza', title: `Song ${n}`, listenedAt: new Date(Date.UTC(2024, 0, n)).toISOString(), submitted: { n } })),
    };
    assert.equal((await app().procedure('app.svc.scrobble.importListens', batch, token)).status, 200);
    let samples = await scrape(app().apiUrl);
    assert.equal(sampleValue(samples, 'earshot_plays_ingested_total', { protocol: 'import:listenbrainz', outcome: 'stored' }), 2);
    assert.equal(sampleValue(samples, 'earshot_plays_ingested_total', { protocol: 'import:listenbrainz', outcome: 'ignored' }), 1);
    assert.equal(sampleValue(samples, 'earshot_imports_running'), 1);
    // Nothing folds the queue in a test app: every stored play is still queued for the rollups.
    assert.ok(sampleValue(samples, 'earshot_stats_queue_depth')! >= 2);

    const last = { ...batch, from: 3, records: 0, listens: [], complete: true };
    assert.equal((await app().procedure('app.svc.scrobble.importListens', last, token)).status, 200);
    samples = await scrape(app().apiUrl);
    assert.equal(sampleValue(samples, 'earshot_imports_running'), 0);
  });

  test('database pool use and the process defaults are exposed', async () => {
    const samples = await scrape(app().apiUrl);
    const busy = sampleValue(samples, 'earshot_db_pool_connections', { state: 'busy' });
    const idle = sampleValue(samples, 'earshot_db_pool_connections', { state: 'idle' });
    assert.equal(typeof busy, 'number');
    assert.equal(typeof idle, 'number');
    assert.equal(typeof sampleValue(samples, 'earshot_db_pool_waiting'), 'number');
    assert.equal(typeof sampleValue(samples, 'process_cpu_user_seconds_total'), 'number');
    assert.ok(samples.some((sample) => sample.name === 'nodejs_heap_size_used_bytes'));
  });
});

describeWithApp(
  'metrics behind a token',
  (app) => {
    test('/metrics answers 401 in {error, message} without the token or with another, 200 with it, on both hosts', async () => {
      for (const url of hostsOf(app())) {
        const missing = await jsonRequest<{ error: string; message: string }>(`${url}/metrics`, 'GET');
        assert.deepEqual([missing.status, missing.body.error], [401, 'AuthMissing']);
        const wrong = await jsonRequest<{ error: string }>(`${url}/metrics`, 'GET', { token: 'scrape-secret-but-not' });
        assert.deepEqual([wrong.status, wrong.body.error], [401, 'InvalidToken']);
        assert.ok((await scrape(url, { authorization: 'Bearer scrape-secret' })).length > 0);
        assert.equal((await jsonRequest(`${url}/health`, 'GET')).status, 200);
      }
    });
  },
  { metrics: { token: 'scrape-secret', port: undefined, host: '127.0.0.1' } },
  // Who may read /metrics: the database's gauges are checked per backend above.
  { storage: 'one' },
);

describeWithApp(
  'metrics on a listener of their own',
  (app) => {
    test('/metrics is not on the public hosts, and is on the metrics listener with their requests', async () => {
      const notOnApi = await jsonRequest<{ error: string }>(`${app().apiUrl}/metrics`, 'GET');
      assert.deepEqual([notOnApi.status, notOnApi.body.error], [404, 'NotFound']);
      assert.equal((await jsonRequest(`${app().scrobblerUrl}/metrics`, 'GET')).status, 404);
      for (const url of hostsOf(app())) assert.equal((await jsonRequest(`${url}/ready`, 'GET')).status, 200);
      const samples = await scrape(app().metricsUrl!);
      assert.equal(sampleValue(samples, 'earshot_http_request_duration_seconds_count', { host: 'api', method: 'GET', route: '(unmatched)', status: '404' }), 1);
      assert.equal(
        sampleValue(samples, 'earshot_http_request_duration_seconds_count', { host: 'scrobbler', method: 'GET', route: '/ready', status: '200' }),
        1,
      );
    });
  },
  { metrics: { token: undefined, port: 0, host: '127.0.0.1' } },
  // Which listener serves /metrics: the database's gauges are checked per backend above.
  { storage: 'one' },
);

for (const backend of testBackends()) {
  describe(`a process whose database is gone [${backend.name}]`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(backend);
      await app.ctx.db.destroy();
    });
    after(() => app.close());

    test('/ready is 503 NotReady on both hosts; /health and /metrics still answer, the database gauges NaN', async () => {
      for (const url of hostsOf(app)) {
        const ready = await jsonRequest<{ error: string; message: string }>(`${url}/ready`, 'GET');
        assert.deepEqual([ready.status, ready.body], [503, { error: 'NotReady', message: 'the database is unreachable' }]);
        assert.equal((await jsonRequest(`${url}/health`, 'GET')).status, 200);
      }
      const samples = await scrape(app.apiUrl);
      assert.ok(Number.isNaN(sampleValue(samples, 'earshot_stats_queue_depth')));
      assert.ok(Number.isNaN(sampleValue(samples, 'earshot_imports_running')));
    });
  });
}

test('background job runs are counted per job and outcome; a run stopped by shutdown is not a failure', async () => {
  const backend = oneBackend();
  const storage = await backend.open();
  try {
    const metrics = new Metrics(storage.db);
    let finished!: () => void;
    const bothFinished = new Promise<void>((resolve) => (finished = resolve));
    let runs = 0;
    const observer = {
      jobRan(job: string, outcome: 'succeeded' | 'failed') {
        metrics.jobRan(job, outcome);
        if (++runs === 2) finished();
      },
    };
    const jobs = startBackgroundJobs(
      [
        { name: 'Works', intervalMs: 0, run: async () => undefined },
        { name: 'Breaks', intervalMs: 0, run: async () => Promise.reject(new Error('expected in this test')) },
        // Fails only because stop() aborts it.
        {
          name: 'Stopped',
          intervalMs: 0,
          run: (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
        },
      ],
      observer,
    );
    await bothFinished;
    await jobs.stop();
    const samples = parsePrometheusText(await metrics.registry.metrics());
    assert.equal(sampleValue(samples, 'earshot_background_job_runs_total', { job: 'Works', outcome: 'succeeded' }), 1);
    assert.equal(sampleValue(samples, 'earshot_background_job_runs_total', { job: 'Breaks', outcome: 'failed' }), 1);
    assert.equal(sampleValue(samples, 'earshot_background_job_runs_total', { job: 'Breaks', outcome: 'succeeded' }), undefined);
    assert.equal(sampleValue(samples, 'earshot_background_job_runs_total', { job: 'Stopped' }), undefined);
  } finally {
    await storage.close();
  }
});
