import type { FastifyInstance } from 'fastify';
import { createHttpServer, type HttpServerOptions } from '../adapters/http/server.ts';
import type { AppContext } from '../core/context.ts';
import { registerHostOperations } from './ops/index.ts';
import { registerListenBrainz } from '../adapters/listenbrainz/routes.ts';
import { registerLastfm } from '../adapters/lastfm/index.ts';
import { registerAudioscrobbler } from '../adapters/audioscrobbler/index.ts';
import { registerMaloja } from '../adapters/maloja/routes.ts';

/**
 * Adds one scrobbling protocol's routes to the scrobbler host. A registrar
 * should wrap its routes in `app.register(plugin, { prefix })` so its error,
 * not-found and body-parsing rules stay encapsulated below its own prefix.
 */
export type ScrobblerProtocolRegistrar = (app: FastifyInstance, ctx: AppContext) => void;

/** Every protocol the scrobbler host speaks; adding one is a one-line edit here. */
const SCROBBLER_PROTOCOLS: readonly ScrobblerProtocolRegistrar[] = [registerListenBrainz, registerLastfm, registerAudioscrobbler, registerMaloja];

/** The scrobble-submission host that existing scrobbler clients are repointed to. */
export function buildScrobblerServer(ctx: AppContext, options: HttpServerOptions): FastifyInstance {
  const app = createHttpServer(options);
  registerHostOperations(app, ctx, 'scrobbler');
  app.get('/', async () => ({ service: 'earshot scrobbler', api: ctx.config.publicUrl }));
  for (const register of SCROBBLER_PROTOCOLS) register(app, ctx);
  return app;
}
