import { fork } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * A closed-loop HTTP load generator: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answer has arrived. It runs in a child process of its own, as
 * autocannon would, so its work does not weigh on the event loop of the server under test.
 */
export interface LoadRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A body in which every `{{n}}` becomes a number unique to the request (a fresh timestamp, say). */
  body?: string;
  /** Where the numbers start (default 1); later runs of the same request go on from where the last stopped. */
  firstN?: number;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, by status. */
  failures: Record<number, number>;
}

interface LoadJob {
  request: LoadRequest;
  connections: number;
  seconds: number;
  firstN: number;
}

function send(agent: http.Agent, request: LoadRequest, n: number): Promise<number> {
  const body = request.body?.replaceAll('{{n}}', String(n));
  return new Promise((resolve, reject) => {
    const outgoing = http.request(request.url, { agent, method: request.method ?? 'GET', headers: request.headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * `connections` loops, each making its next call as soon as the previous one has answered, for
 * `seconds`; `call` gets a number unique to the call and answers an HTTP-like status.
 */
export async function closedLoop(
  connections: number,
  seconds: number,
  call: (n: number) => Promise<number>,
  firstN = 1,
): Promise<LoadResult & { nextN: number }> {
  const times: number[] = [];
  const failures: Record<number, number> = {};
  let n = firstN;
  const start = performance.now();
  const end = start + seconds * 1000;
  const connection = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      const status = await call(n++);
      times.push(performance.now() - sent);
      if (status < 200 || status >= 300) failures[status] = (failures[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, connection));
  const elapsed = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(times.length * fraction))] ?? 0;
  return { requests: times.length, perSecond: times.length / elapsed, p50: at(0.5), p99: at(0.99), failures, nextN: n };
}

async function runJob(job: LoadJob): Promise<LoadResult & { nextN: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  try {
    return await closedLoop(job.connections, job.seconds, (n) => send(agent, job.request, n), job.firstN);
  } finally {
    agent.destroy();
  }
}

/** A load generator process, reused across runs; `close` ends it. */
export interface LoadGenerator {
  run(request: LoadRequest, options: { connections: number; seconds: number }): Promise<LoadResult>;
  close(): void;
}

export function startLoadGenerator(): LoadGenerator {
  const child = fork(fileURLToPath(import.meta.url), { execArgv: ['--import', 'tsx'] });
  const nextN = new Map<string, number>();
  return {
    run(request, { connections, seconds }) {
      const key = `${request.method} ${request.url}`;
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('message', (result: LoadResult & { nextN: number }) => {
          child.off('error', reject);
          nextN.set(key, result.nextN);
          resolve(result);
        });
        child.send({ request, connections, seconds, firstN: nextN.get(key) ?? request.firstN ?? 1 } satisfies LoadJob);
      });
    },
    close: () => child.kill(),
  };
}

/** Median of runs alternating between two targets under the same load, so background load weighs on both alike. */
export async function compareUnderLoad(
  generator: LoadGenerator,
  label: string,
  measured: LoadRequest | (() => Promise<LoadResult>),
  baselineLabel: string,
  baseline: LoadRequest | (() => Promise<LoadResult>),
  options: { connections: number; seconds: number; rounds: number },
): Promise<number> {
  const run = (target: LoadRequest | (() => Promise<LoadResult>)) => (typeof target === 'function' ? target() : generator.run(target, options));
  const results: [LoadResult[], LoadResult[]] = [[], []];
  for (let round = 0; round < options.rounds; round++) {
    results[0].push(await run(measured));
    results[1].push(await run(baseline));
  }
  const median = (runs: LoadResult[]) => [...runs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(runs.length / 2)]!;
  const [ours, theirs] = [median(results[0]), median(results[1])];
  for (const [name, result] of [
    [label, ours],
    [baselineLabel, theirs],
  ] as const) {
    const failed = Object.entries(result.failures);
    if (failed.length > 0) throw new Error(`${name}: ${failed.map(([status, count]) => `${count} x ${status}`).join(', ')}`);
  }
  const ratio = ours.perSecond / theirs.perSecond;
  // The spread of the rounds beside the median: on a shared machine one round alone says little.
  const range = (runs: LoadResult[]) =>
    `${Math.round(Math.min(...runs.map((run) => run.perSecond)))}-${Math.round(Math.max(...runs.map((run) => run.perSecond)))}`;
  const latency = (result: LoadResult) =>
    Number.isFinite(result.p99) ? `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms` : `mean ${result.p50.toFixed(1)} ms`;
  const show = (result: LoadResult, runs: LoadResult[]) => `${Math.round(result.perSecond)}/s [${range(runs)}] (${latency(result)})`;
  console.log(`  ${label}: ${show(ours, results[0])}  | ${baselineLabel}: ${show(theirs, results[1])}  | Earshot is ${(ratio * 100).toFixed(1)}% of baseline`);
  return ratio;
}

// In the child: run each job as it arrives and answer with its result.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on('message', (job: LoadJob) => {
    void runJob(job).then((result) => process.send!(result));
  });
}
