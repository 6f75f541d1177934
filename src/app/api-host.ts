/**
 * The API host, composed: the shared HTTP server (adapters/http/server.ts) with the host operations
 * (health, CORS, rate limits: ops/), every XRPC operation and route (registry.ts, registered by
 * adapters/http/declarations.ts), the OpenAPI document describing them, the OpenSubsonic server
 * under /rest, the public pictures, and the web app for every other GET.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.ts';
import { registerDeclarations, type Declarations } from '../adapters/http/declarations.ts';
import { buildOpenApiDocument } from '../adapters/http/openapi.ts';
import { registerPictureRoutes } from '../adapters/http/picture-routes.ts';
import { createHttpServer, type HttpServerOptions } from '../adapters/http/server.ts';
import { registerSubsonic } from '../adapters/subsonic/index.ts';
import { serveWebApp } from '../adapters/web/static.ts';
import { registerHostOperations } from './ops/index.ts';

/** The API host: XRPC operations, plain routes, and the OpenAPI document describing both. */
export function buildApiServer(
  ctx: AppContext,
  declarations: Declarations,
  options: HttpServerOptions,
): FastifyInstance {
  const app = createHttpServer(options);
  registerHostOperations(app, ctx, 'api');
  const openApi = buildOpenApiDocument(ctx.config.publicUrl, declarations.operations, declarations.routes);
  registerDeclarations(app, ctx, declarations);
  registerSubsonic(app, ctx);
  registerPictureRoutes(app, ctx);
  app.get('/openapi.json', async () => openApi);
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
