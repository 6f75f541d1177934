import type { FastifyInstance } from 'fastify';
import { createHttpServer, type HttpServerOptions } from '../api/server.ts';
import type { AppContext } from '../context.ts';

/** The scrobble-submission host that existing scrobbler clients are repointed to. */
export function buildScrobblerServer(ctx: AppContext, options: HttpServerOptions): FastifyInstance {
  const app = createHttpServer(options);
  app.get('/', async () => ({ service: 'earshot scrobbler', api: ctx.config.publicUrl }));
  return app;
}
