import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startTestApp, oneBackend, type TestApp } from '../../app/testing.ts';
import { openApiPath } from './openapi-document.ts';
import { observeRoutes, type ListedRoute } from './route-listing.ts';
import { compileEverySchema } from './server.ts';

interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
}

/** Fastify registers a plugin's `/` under both `/prefix` and `/prefix/`: one path either way. */
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

/** Every documented (method, full path), each path resolved against its own server or the document's. */
function documented(document: Document, baseUrl: string): Set<string> {
  const entries = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    const server = (item.servers ?? document.servers)[0]!.url;
    assert.ok(server.startsWith(baseUrl), `${path}: server ${server} is not on ${baseUrl}`);
    const full = withoutTrailingSlash(`${server.slice(baseUrl.length)}${path}`);
    for (const method of Object.keys(item).filter((key) => key !== 'servers')) entries.add(`${method.toUpperCase()} ${full}`);
  }
  return entries;
}

/**
 * What a host serves that is not an operation of its own: Fastify's HEAD beside each GET, the
 * CORS plugin's preflight route, and the 405 answers on a declared path. The web app's pages and
 * files are not routes (the API host's not-found handler serves them), so they are not listed.
 */
function operationsAmong(routes: readonly ListedRoute[]): ListedRoute[] {
  const gets = new Set(routes.filter((route) => route.method === 'GET').map((route) => withoutTrailingSlash(route.url)));
  const answeredByOthers = (route: ListedRoute) =>
    (route.method === 'HEAD' && gets.has(withoutTrailingSlash(route.url))) || (route.method === 'OPTIONS' && route.url === '*') || route.refusesMethod;
  return routes.filter((route) => !answeredByOthers(route));
}

describe('every route of both hosts is in its host’s OpenAPI document', () => {
  const listed = new Map<FastifyInstance, ListedRoute[]>();
  let app: TestApp;

  before(async () => {
    const stop = observeRoutes((host, route) => listed.set(host, [...(listed.get(host) ?? []), route]));
    try {
      app = await startTestApp(oneBackend());
    } finally {
      stop();
    }
  });
  after(() => app.close());

  function routesOfHost(url: string): ListedRoute[] {
    const port = Number(new URL(url).port);
    const host = [...listed.keys()].find((instance) => (instance.server.address() as AddressInfo | null)?.port === port);
    assert.ok(host, `no host listens at ${url}`);
    return operationsAmong(listed.get(host)!);
  }

  for (const [name, url, baseUrl] of [
    ['API', () => app.apiUrl, () => app.ctx.config.publicUrl],
    ['scrobbler', () => app.scrobblerUrl, () => app.ctx.config.scrobblerPublicUrl],
  ] as const) {
    test(`the ${name} host`, async () => {
      const response = await fetch(`${url()}/openapi.json`);
      assert.equal(response.status, 200);
      const inDocument = documented((await response.json()) as Document, baseUrl());
      const routes = routesOfHost(url());
      assert.ok(routes.length > 10, `only ${routes.length} routes listed`);
      const missing = routes.map((route) => `${route.method} ${withoutTrailingSlash(openApiPath(route.url))}`).filter((route) => !inDocument.has(route));
      assert.deepEqual([...new Set(missing)], [], `routes missing from the ${name} host's OpenAPI document`);
    });
  }

  // Servers compile a route's validators and serializer on its first request; here every one is built
  // (the API host's; the scrobbler's protocols read their requests themselves and declare none).
  test("every route's validators and serializers build", () => {
    const compiled = [...listed.keys()].map((host) => compileEverySchema(host));
    assert.ok(Math.max(...compiled) > 100, `only ${compiled.join(' and ')} schemas on the hosts`);
  });
});
