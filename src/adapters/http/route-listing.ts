import type { FastifyInstance } from 'fastify';
import type { AnyEndpoint } from './endpoint.ts';

/** One method of one route as Fastify registered it, with the endpoint it was declared by, if any. */
export interface ListedRoute {
  method: string;
  url: string;
  endpoint: AnyEndpoint | undefined;
  /** A route the 405 rule added on a declared path: it refuses, it is not an operation of its own. */
  refusesMethod: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration a route was registered from (register.ts). */
    endpoint?: AnyEndpoint;
    refusesMethod?: boolean;
  }
}

type RouteObserver = (host: FastifyInstance, route: ListedRoute) => void;

const LISTED = Symbol('listedRoutes');
const observers = new Set<RouteObserver>();

/**
 * Lists every route registered on `host` and its plugins from now on: the OpenAPI document is
 * built from the endpoints among them, and tests check that it covers all of them.
 */
export function listRoutes(host: FastifyInstance): void {
  const listed: ListedRoute[] = [];
  host.decorate(LISTED, listed);
  host.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    for (const method of [route.method].flat()) {
      const entry = { method, url: route.url, endpoint: config.endpoint, refusesMethod: config.refusesMethod === true };
      listed.push(entry);
      for (const observer of observers) observer(host, entry);
    }
  });
}

/** The routes listed so far on the host `instance` belongs to (a plugin sees its host's list). */
export function routesOf(instance: FastifyInstance): readonly ListedRoute[] {
  return (instance as unknown as Record<symbol, ListedRoute[] | undefined>)[LISTED] ?? [];
}

/** For tests: calls `observer` with every route listed on any host from now on, until the returned function is called. */
export function observeRoutes(observer: RouteObserver): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}
