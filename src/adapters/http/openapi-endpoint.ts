import type { AppContext } from '../../core/context.ts';
import type { AnyEndpoint, Endpoint, HostName } from './endpoint.ts';
import { buildOpenApiDocument, type OpenApiDocumentSpec } from './openapi-document.ts';
import { routesOf, type ListedRoute } from './route-listing.ts';
import { PLAIN_HTTP } from './xrpc-protocol.ts';

/**
 * `GET /openapi.json`: the document of every endpoint its host registered, built at the first
 * request (every route is registered by then) and kept.
 */
export function openApiEndpoint(host: HostName, spec: (ctx: AppContext) => OpenApiDocumentSpec): Endpoint {
  let document: Record<string, unknown> | undefined;
  return {
    method: 'GET',
    path: '/openapi.json',
    host,
    protocol: PLAIN_HTTP,
    summary: 'This OpenAPI 3.1.0 document: every route of this host',
    openapi: {
      operationId: 'getOpenApi',
      tags: ['ops'],
      security: [],
      parameters: [],
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
    handler: async ({ request, ctx }) => {
      // An endpoint registered on a host it does not declare stays out, so the coverage test names it.
      const declared = (route: ListedRoute) => route.endpoint !== undefined && route.endpoint.host === host && !route.refusesMethod;
      const endpoints = new Set<AnyEndpoint>(
        routesOf(request.server)
          .filter(declared)
          .map((route) => route.endpoint!),
      );
      document ??= buildOpenApiDocument(spec(ctx), [...endpoints]);
      return document;
    },
  };
}
