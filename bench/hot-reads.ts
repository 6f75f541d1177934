import Fastify from 'fastify';
import { startTestApp, type TestApp } from '../src/app/testing.ts';
import { rebuildRollups } from '../src/core/stats/index.ts';
import { benchServers } from './harness.ts';
import { compareUnderLoad, startLoadGenerator, type LoadGenerator, type LoadRequest } from './http-load.ts';
import { seedRealistic } from './seed.ts';

export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
};

/**
 * Runs `measure` against a real server on each bench backend, with one load generator for all:
 * the frame every benchmark under load shares.
 */
export async function onEachServer(
  measure: (app: TestApp, generator: LoadGenerator, backend: string) => Promise<void>,
  options: { durable?: boolean } = {},
): Promise<void> {
  const generator = startLoadGenerator();
  try {
    for (const { label, backend } of benchServers(options)) {
      const app = await startTestApp(backend);
      try {
        await measure(app, generator, label);
      } finally {
        await app.close();
      }
    }
  } finally {
    generator.close();
  }
}

/** A bare Fastify route answering exactly the bytes a real request got, with its content type. */
async function bareTwin(url: string): Promise<{ url: string; close(): Promise<void> }> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const type = response.headers.get('content-type')!;
  const body = await response.text();
  const bare = Fastify();
  bare.get('/bare', (_request, reply) => reply.type(type).send(body));
  const address = await bare.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/bare`, close: () => bare.close() };
}

/**
 * The busiest reads through the real server, under `connections` concurrent clients, against a
 * bare Fastify route in the same process sending the same bytes: getFeed (limit 50) of a heavy
 * user and of everyone, getSongs `title==*love*`, over a realistic seed.
 */
export async function hotReadsBenchmark(): Promise<void> {
  const heavyPlays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const year = new Date().getUTCFullYear() - 1;
  console.log(`hot reads: ${LOAD.connections} connections, ${LOAD.rounds} x ${LOAD.seconds} s each way; a heavy user with ${heavyPlays} plays in ${year}`);
  await onEachServer(async (app, generator, backend) => {
    const seeded = await seedRealistic(app.ctx.db, { heavy: [{ handle: 'heavy', plays: heavyPlays, year }] });
    // The rollups as a live server keeps them, its fold seconds behind the last play: the seed
    // writes years of plays at once, and unfolded every recomputed getSongs would sum them all.
    await rebuildRollups(app.ctx.db);
    const xrpc = (nsid: string, params: Record<string, string>) => `${app.apiUrl}/xrpc/${nsid}?${new URLSearchParams(params)}`;
    const targets: [string, string][] = [
      ['getFeed of a heavy user', xrpc('app.svc.feed.getFeed', { feed: `earshot:feed:user:${seeded.heavy.heavy!.did}`, limit: '50' })],
      ['getFeed recent', xrpc('app.svc.feed.getFeed', { feed: 'earshot:feed:recent', limit: '50' })],
      ['getSongs title==*love*', xrpc('app.svc.song.getSongs', { filter: 'title==*love*', limit: '50' })],
    ];
    for (const [label, url] of targets) {
      const twin = await bareTwin(url);
      try {
        const request: LoadRequest = { url };
        await compareUnderLoad(generator, `${backend} ${label}`, request, 'bare Fastify route', { url: twin.url }, LOAD);
      } finally {
        await twin.close();
      }
    }
  });
}
