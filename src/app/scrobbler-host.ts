import type { FastifyInstance } from 'fastify';
import { createHttpServer, type HttpServerOptions } from '../adapters/http/server.ts';
import type { AppContext } from '../core/context.ts';
import { registerHostOperations } from './ops/index.ts';
import type { Endpoint } from '../adapters/http/endpoint.ts';
import type { OpenApiDocumentSpec } from '../adapters/http/openapi-document.ts';
import { openApiEndpoint } from '../adapters/http/openapi-endpoint.ts';
import { registerEndpoints } from '../adapters/http/register.ts';
import { PLAIN_HTTP } from '../adapters/http/xrpc-protocol.ts';
import { registerListenBrainz } from '../adapters/listenbrainz/routes.ts';
import { registerLastfm } from '../adapters/lastfm/index.ts';
import { registerAudioscrobbler } from '../adapters/audioscrobbler/index.ts';
import { registerMaloja } from '../adapters/maloja/routes.ts';
import { registerMediaServers } from '../adapters/media-servers/routes.ts';

/**
 * Adds one scrobbling protocol's routes to the scrobbler host. A registrar
 * should wrap its routes in `app.register(plugin, { prefix })` so its error,
 * not-found and body-parsing rules stay encapsulated below its own prefix.
 */
export type ScrobblerProtocolRegistrar = (app: FastifyInstance, ctx: AppContext) => void;

/** Every protocol the scrobbler host speaks; adding one is a one-line edit here. */
const SCROBBLER_PROTOCOLS: readonly ScrobblerProtocolRegistrar[] = [
  registerListenBrainz,
  registerLastfm,
  registerAudioscrobbler,
  registerMaloja,
  registerMediaServers,
];

/** `GET /`: what this host is, and where the API host is. */
const hostPageEndpoint: Endpoint = {
  method: 'GET',
  path: '/',
  host: 'scrobbler',
  protocol: PLAIN_HTTP,
  summary: 'What this host is, and the URL of the API host',
  openapi: {
    operationId: 'getScrobblerHost',
    tags: ['ops'],
    responses: { '200': { description: '{ service, api }', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
  handler: async ({ ctx }) => ({ service: 'earshot scrobbler', api: ctx.config.publicUrl }),
};

const scrobblerDocument = (ctx: AppContext): OpenApiDocumentSpec => ({
  title: 'Earshot scrobbler host',
  description:
    "The scrobbling protocols existing clients speak: ListenBrainz, Last.fm 2.0, Audioscrobbler 1.2 and Maloja; and media servers' playback webhooks (Jellyfin, Plex, Emby).",
  baseUrl: ctx.config.scrobblerPublicUrl,
});

/** The scrobble-submission host that existing scrobbler clients are repointed to. */
export function buildScrobblerServer(ctx: AppContext, options: HttpServerOptions): FastifyInstance {
  const app = createHttpServer(options);
  registerHostOperations(app, ctx, 'scrobbler');
  registerEndpoints(app, ctx, [hostPageEndpoint, openApiEndpoint('scrobbler', scrobblerDocument)]);
  for (const register of SCROBBLER_PROTOCOLS) register(app, ctx);
  return app;
}
