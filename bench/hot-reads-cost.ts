import Fastify from 'fastify';
import fastJson from 'fast-json-stringify';
import { CompiledQuery, type RootOperationNode } from 'kysely';
import type { AnyOperation } from '../src/adapters/http/operation.ts';
import { feedOperations } from '../src/adapters/xrpc/app.svc.feed.ts';
import { songOperations } from '../src/adapters/xrpc/app.svc.song.ts';
import { startTestApp } from '../src/app/testing.ts';
import type { AppContext } from '../src/core/context.ts';
import { currentSnapshot, type Database } from '../src/toolkit/db/index.ts';
import { benchServers, median, timed } from './harness.ts';
import { seedRealistic } from './seed.ts';

const RUNS = Number(process.env.BENCH_COST_RUNS ?? 30);

async function medianOf(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(run));
  return median(times);
}

/** The statements `handler` runs, compiled, captured through a plugin that changes nothing. */
async function statementsOf(db: Database, handler: (db: Database) => Promise<unknown>): Promise<CompiledQuery[]> {
  const nodes: RootOperationNode[] = [];
  const spy = db.withPlugin({
    transformQuery: ({ node }) => (nodes.push(node), node),
    transformResult: async ({ result }) => result,
  });
  await handler(spy);
  return nodes.map((node) => db.getExecutor().compileQuery(node, { queryId: 'cost' } as never));
}

/** The server's own planning and execution times of `statement` (EXPLAIN ANALYZE), in ms. */
async function explained(db: Database, statement: CompiledQuery): Promise<{ planning: number; execution: number }> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
  );
  const plan = rows[0]!['QUERY PLAN'];
  const [analyzed] = typeof plan === 'string' ? JSON.parse(plan) : plan;
  return { planning: analyzed['Planning Time'], execution: analyzed['Execution Time'] };
}

/** The server's planning and execution times of each statement, medians of BENCH_COST_RUNS, summed. */
async function explainedOf(db: Database, statements: readonly CompiledQuery[]): Promise<{ planning: number; execution: number }> {
  const sum = { planning: 0, execution: 0 };
  for (const statement of statements) {
    const runs: { planning: number; execution: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await explained(db, statement));
    sum.planning += median(runs.map((run) => run.planning));
    sum.execution += median(runs.map((run) => run.execution));
  }
  return sum;
}

async function httpMs(url: string): Promise<number> {
  // A fresh connection each time: a kept-alive one may have been closed by the server's idle timeout during a slow part before.
  return medianOf(async () => {
    const response = await fetch(url, { headers: { connection: 'close' } });
    await response.arrayBuffer();
  });
}

/**
 * Where one getFeed and one getSongs spend their time, each part timed alone, one request at a
 * time (median of BENCH_COST_RUNS): the database's planning and execution of the statements (EXPLAIN ANALYZE),
 * the statements as the driver returns their rows, the handler (statements, rows turned into
 * views), serializing the answer, reading the snapshot, a kept answer over HTTP, and a bare
 * Fastify route sending the same bytes over HTTP.
 */
export async function hotReadsCostBenchmark(): Promise<void> {
  const operation = (nsid: string) => [...feedOperations, ...songOperations].find((candidate) => candidate.nsid === nsid)! as AnyOperation;
  console.log(`hot reads, cost of one request (median of ${RUNS}, one at a time, ms)`);
  for (const { label, backend } of benchServers()) {
    const app = await startTestApp(backend);
    try {
      const seeded = await seedRealistic(app.ctx.db, {
        heavy: [{ handle: 'heavy', plays: Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000), year: new Date().getUTCFullYear() - 1 }],
      });
      const targets: [string, string, Record<string, unknown>][] = [
        ['getFeed of a heavy user', 'app.svc.feed.getFeed', { feed: `earshot:feed:user:${seeded.heavy.heavy!.did}`, limit: 50 }],
        ['getFeed recent', 'app.svc.feed.getFeed', { feed: 'earshot:feed:recent', limit: 50 }],
        ['getSongs title==*love*', 'app.svc.song.getSongs', { filter: 'title==*love*', limit: 50, offset: 0 }],
      ];
      for (const [name, nsid, params] of targets) {
        const op = operation(nsid);
        const handle = (db: Database) => op.handler({ params, input: undefined, viewer: null, ctx: { ...app.ctx, db } as AppContext, setCookie() {} });
        const statements = await statementsOf(app.ctx.db, handle);
        const serialize = fastJson(op.output as never);
        const output = await handle(app.ctx.db);
        const body = serialize(output);
        const url = `${app.apiUrl}/xrpc/${nsid}?${new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]))}`;
        const bare = Fastify();
        bare.get('/bare', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
        const bareUrl = `${await bare.listen({ host: '127.0.0.1', port: 0 })}/bare`;
        try {
          const parts = {
            ...(await explainedOf(app.ctx.db, statements)),
            statements: await medianOf(async () => {
              for (const statement of statements) await app.ctx.db.executeQuery(statement);
            }),
            handler: await medianOf(() => handle(app.ctx.db)),
            serialize: await medianOf(async () => Buffer.from(serialize(output))),
            snapshot: await medianOf(() => currentSnapshot(app.ctx.db)),
            keptOverHttp: await httpMs(url),
            bareOverHttp: await httpMs(bareUrl),
          };
          const shown = Object.entries(parts).map(([part, ms]) => `${part} ${ms.toFixed(2)}`);
          const counted = await app.ctx.metrics.registry.getSingleMetric('earshot_response_cache_answers_total')!.get();
          const outcomes = counted.values.filter((value) => value.labels.nsid === nsid).map((value) => `${value.labels.outcome} ${value.value}`);
          console.log(`  ${label} ${name} (${body.length} bytes, ${statements.length} statements): ${shown.join(', ')}; so far ${outcomes.join(', ')}`);
        } finally {
          await bare.close();
        }
      }
    } finally {
      await app.close();
    }
  }
}
