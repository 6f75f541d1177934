/**
 * The API host, composed: the shared HTTP server (adapters/http/server.ts) with the host operations
 * (health, CORS, rate limits: ops/), every XRPC operation and plain route (registry.ts), the public
 * pictures and the OpenAPI document (adapters/http/api-endpoints.ts), all registered through the one
 * endpoint registration (adapters/http/register.ts), the OpenSubsonic server under /rest, and the web
 * app for every other GET.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.ts';
import { apiEndpoints } from '../adapters/http/api-endpoints.ts';
import { endLiveStreams } from '../adapters/http/live-events-endpoint.ts';
import type { AnyOperation } from '../adapters/http/operation.ts';
import { registerEndpoints } from '../adapters/http/register.ts';
import type { AnyRoute } from '../adapters/http/route.ts';
import { createHttpServer, type HttpServerOptions } from '../adapters/http/server.ts';
import { registerSubsonic } from '../adapters/subsonic/index.ts';
import { serveWebApp } from '../adapters/web/static.ts';
import { registerHostOperations } from './ops/index.ts';

export interface Declarations {
  operations: readonly AnyOperation[];
  routes: readonly AnyRoute[];
}

/** The API host: XRPC operations, plain routes, Subsonic, pictures, and the OpenAPI document describing them all. */
export function buildApiServer(ctx: AppContext, declarations: Declarations, options: HttpServerOptions): FastifyInstance {
  const app = createHttpServer(options);
  registerHostOperations(app, ctx, 'api');
  registerEndpoints(app, ctx, apiEndpoints(declarations, { responseCacheBytes: ctx.config.responseCacheMiB * 1024 * 1024 }));
  // Live streams never end on their own: they are ended so closing waits for none.
  app.addHook('preClose', async () => endLiveStreams(app.server));
  registerSubsonic(app, ctx);
  app.setNotFoundHandler(async (request, reply) => {
    const served = serveWebApp(request, reply);
    if (served) return served;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/xrpc/')) {
      return reply.status(404).send({ error: 'MethodNotImplemented', message: `no operation ${path.slice(6)}` });
    }
    return reply.status(404).send({ error: 'NotFound', message: `no route ${request.method} ${path}` });
  });
  return app;
}
