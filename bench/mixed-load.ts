import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { jsonRequest, startTestApp, testBackends, type TestApp } from '../src/app/testing.ts';
import { percentile } from './harness.ts';
import { seedRealistic } from './seed.ts';

const YEAR = 2024;

/** Latencies of `samples` getFeed calls, one after another with a short pause, as a person scrolling would make them. */
async function feedLatencies(app: TestApp, feed: string, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const result = await app.query('app.svc.feed.getFeed', { feed, limit: 20 });
    times.push(performance.now() - start);
    if (result.status !== 200) throw new Error(`getFeed answered ${result.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

/** A client reading the heavy user's Wrapped over and over until `stop` says so; 429s are waited out as Retry-After asks. */
async function wrappedReader(url: string, stop: () => boolean): Promise<number> {
  let answered = 0;
  while (!stop()) {
    const result = await jsonRequest(url, 'GET');
    if (result.status === 429) await new Promise((resolve) => setTimeout(resolve, 1000 * Number(result.headers.get('retry-after') ?? 1)));
    else if (result.status !== 200) throw new Error(`getWrapped answered ${result.status}`);
    else answered++;
  }
  return answered;
}

/** Posts importListens batches of 500 until told to stop; answers how many were stored. */
async function importLoop(app: TestApp, token: string, stop: () => boolean): Promise<number> {
  const fingerprint = 'e'.repeat(64);
  let from = 0;
  while (!stop()) {
    const listens = Array.from({ length: 500 }, (_, i) => ({
      artist: `Artist ${(from + i) % 97}`,
      title: `Imported ${(from + i) % 5000}`,
      listenedAt: new Date(Date.UTC(2020, 0, 1) + (from + i) * 60_000).toISOString(),
      submitted: { n: from + i },
    }));
    const result = await app.procedure(
      'app.svc.scrobble.importListens',
      { fingerprint, format: 'listenbrainz', from, records: 500, listens, complete: false },
      token,
    );
    if (result.status !== 200) throw new Error(`importListens answered ${result.status}: ${JSON.stringify(result.body)}`);
    from += 500;
  }
  return from;
}

/**
 * Head-of-line blocking: another user's getFeed while 4 clients read a
 * 50k-play Wrapped (alone, then with an import), as p50/p99 latency and as a ratio to the same getFeed on
 * the idle server, measured in the same run.
 */
export async function mixedLoadBenchmark(): Promise<void> {
  const plays = Number(process.env.BENCH_WRAPPED_SCROBBLES ?? 50_000);
  const samples = Number(process.env.BENCH_FEED_SAMPLES ?? 60);
  const readers = Number(process.env.BENCH_WRAPPED_READERS ?? 4);
  console.log(`mixed load: another user's getFeed while ${readers} clients read a ${plays}-play Wrapped; ${samples} feed samples each`);
  process.env.TEST_DATABASE_URL ||= process.env.DATABASE_URL ?? '';
  for (const backend of testBackends()) {
    const app = await startTestApp(backend);
    try {
      const heavy = (await seedRealistic(app.ctx.db, { heavy: [{ handle: 'heavy', plays, year: YEAR }] })).heavy.heavy!;
      const reader = await app.signup(`feedreader${Date.now()}`);
      const readerId = (await app.ctx.db.selectFrom('users').select('id').where('did', '=', reader.did).executeTakeFirstOrThrow()).id;
      await sql`insert into scrobbles (user_id, track_id, listened_at)
        select ${readerId}, id, now() - row_number() over (order by id) * interval '1 hour' from (select id from tracks limit 200) t`.execute(app.ctx.db);
      const feed = `earshot:feed:user:${reader.did}`;
      const wrappedUrl = (tz: string) => `${app.apiUrl}/xrpc/app.svc.stats.getWrapped?did=${encodeURIComponent(heavy.did)}&year=${YEAR}&tz=${tz}`;

      await feedLatencies(app, feed, 5);
      const idle = await feedLatencies(app, feed, samples);
      const idleP50 = percentile(idle, 50);
      const show = (times: number[]) => `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`;
      console.log(`  ${backend.name} idle getFeed: ${show(idle)}`);
      const importer = await app.signup(`importer${Date.now()}`);
      // Wrapped readers alone, then with an import writing all along, so that no answer can be reused: every Wrapped is computed.
      for (const [scenario, withImport] of [
        ['Wrapped readers', false],
        ['Wrapped readers + an import', true],
      ] as const) {
        let stopped = false;
        const clients = Array.from({ length: readers }, () => wrappedReader(wrappedUrl('UTC'), () => stopped));
        if (withImport) clients.push(importLoop(app, importer.token, () => stopped));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const loaded = await feedLatencies(app, feed, samples);
        stopped = true;
        const wrappedAnswers = (await Promise.all(clients)).slice(0, readers).reduce((sum, n) => sum + n, 0);
        console.log(
          `  ${backend.name} getFeed, ${scenario}: ${show(loaded)}  | ratio to idle p50: p50 ${(percentile(loaded, 50) / idleP50).toFixed(1)}x, p99 ${(percentile(loaded, 99) / idleP50).toFixed(1)}x  | ${wrappedAnswers} Wrapped answers meanwhile`,
        );
      }
    } finally {
      await app.close();
    }
  }
}
