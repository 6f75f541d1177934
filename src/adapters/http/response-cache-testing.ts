import assert from 'node:assert/strict';
import type { TestApp } from '../../app/testing.ts';

/** The raw answer of a GET, as a client receives it. */
export async function rawQuery(app: TestApp, nsid: string, params: Record<string, string>, token?: string): Promise<string> {
  const response = await fetch(`${app.apiUrl}/xrpc/${nsid}?${new URLSearchParams(params)}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
  return response.text();
}

async function hits(app: TestApp, nsid: string): Promise<number> {
  const metric = await app.ctx.metrics.registry.getSingleMetric('earshot_response_cache_answers_total')!.get();
  return metric.values.find((value) => value.labels.nsid === nsid && value.labels.outcome === 'hit')?.value ?? 0;
}

/**
 * Reads until an answer comes from the cache, each read the same bytes as the first. A commit
 * anywhere in the database cluster (other test files on a shared PostgreSQL) makes a read
 * compute again, so a hit may take a few reads there; on PGlite the second read is one.
 */
export async function readUntilKept(app: TestApp, nsid: string, params: Record<string, string>, token?: string): Promise<string> {
  const first = await rawQuery(app, nsid, params, token);
  const before = await hits(app, nsid);
  for (let read = 0; read < 500; read++) {
    assert.equal(await rawQuery(app, nsid, params, token), first);
    if ((await hits(app, nsid)) > before) return first;
  }
  assert.fail(`${nsid} was never answered from the cache`);
}
