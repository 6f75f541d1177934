/**
 * Media servers as scrobble sources, on the scrobbler host: Jellyfin (its webhook plugin), Plex
 * and Emby post playback events to /media-servers/<server>?key=<an Earshot API key>. The key is
 * checked before the body is read; a start sets now playing, a stop or a Plex scrobble becomes a
 * play (core/scrobbling/playback-events.ts). Whatever is not a track's playback (a film, a library
 * scan, another user of the server when `user=` names one) is answered 200 and ignored, so a server
 * never retries it; a body that is not what the server sends is 400.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKey, type ApiKeyOwner } from '../../core/auth/api-keys.ts';
import type { AppContext } from '../../core/context.ts';
import { recordPlaybackEvent } from '../../core/scrobbling/playback-events.ts';
import { XrpcError } from '../../toolkit/errors.ts';
import type { AnyEndpoint, CredentialCheck, Endpoint } from '../http/endpoint.ts';
import { acceptMultipartFields } from '../http/multipart.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { PLAIN_HTTP } from '../http/xrpc-protocol.ts';
import { embyReading } from './emby.ts';
import { jellyfinReading } from './jellyfin.ts';
import { text, webhookDocument, type Json, type Reading } from './payload.ts';
import { plexReading } from './plex.ts';

export const MEDIA_SERVERS_PREFIX = '/media-servers';

/** A webhook's JSON is a few kilobytes; Plex's picture beside it may be a few megabytes, read past and dropped. */
const JSON_BODY_LIMIT = 256 * 1024;
const MULTIPART_LIMITS = { maxBodyBytes: 16 * 1024 * 1024, maxFieldBytes: JSON_BODY_LIMIT };

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/** The API key in the URL: `key` (or `apikey`, as Maloja's clients write it). */
export function mediaServerKeyOf(request: FastifyRequest): string | undefined {
  const query = queryOf(request);
  return text(query.key) ?? text(query.apikey);
}

const API_KEY_IN_URL: CredentialCheck<ApiKeyOwner> = {
  stage: 'headers',
  description: 'an Earshot API key as `key` in the query string (a media server sends no headers of its choosing)',
  check: async (request, ctx) => {
    const key = mediaServerKeyOf(request);
    const owner = key ? await authenticateApiKey(ctx.db, key) : null;
    if (!owner) throw new XrpcError(401, 'AuthenticationFailed', key ? 'The API key is not valid' : 'Add an Earshot API key to the URL: ?key=<key>');
    return owner;
  },
};

interface MediaServer {
  name: 'jellyfin' | 'plex' | 'emby';
  title: string;
  /** The form fields a multipart body may carry the JSON in. */
  fields: readonly string[];
  read(body: Json, user: string | undefined): Reading;
  body: string;
}

const SERVERS: readonly MediaServer[] = [
  {
    name: 'jellyfin',
    title: 'Jellyfin',
    fields: ['payload', 'data'],
    read: jellyfinReading,
    body: 'the webhook plugin\'s Generic destination with "Send All Properties": NotificationType PlaybackStart or PlaybackStop, ItemType Audio, …',
  },
  { name: 'plex', title: 'Plex', fields: ['payload'], read: plexReading, body: 'multipart/form-data: `payload` (the event JSON) and `thumb` (dropped)' },
  { name: 'emby', title: 'Emby', fields: ['data', 'payload'], read: embyReading, body: 'JSON (or a form with `data`): Event, Item, PlaybackInfo, User' },
];

const ANSWER = {
  description: '{ status: "playing" | "stored" | "duplicate" | "ignored", reason?, scrobbleId?, playedMs? }',
  content: { 'application/json': { schema: { type: 'object' } } },
};
const ERROR = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });

function endpointOf(server: MediaServer): Endpoint<ApiKeyOwner> {
  return {
    method: 'POST',
    path: `${MEDIA_SERVERS_PREFIX}/${server.name}`,
    host: 'scrobbler',
    protocol: PLAIN_HTTP,
    summary: `Playback events from ${server.title}: now playing on a start, a play on a stop that passes the scrobble rule`,
    credentials: API_KEY_IN_URL,
    route: { bodyLimit: JSON_BODY_LIMIT },
    openapi: {
      operationId: `${server.name}Webhook`,
      tags: ['media servers'],
      description: `Credentials: ${API_KEY_IN_URL.description}.`,
      parameters: [
        { name: 'key', in: 'query', required: true, description: 'an Earshot API key', schema: { type: 'string' } },
        {
          name: 'user',
          in: 'query',
          required: false,
          description: `only this ${server.title} user's events count; others are ignored`,
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        description: server.body,
        content: { 'application/json': { schema: { type: 'object' } }, 'multipart/form-data': { schema: { type: 'object' } } },
      },
      responses: { '200': ANSWER, '400': ERROR('InvalidRequest: not a body this server sends'), '401': ERROR('AuthenticationFailed: no key, or a wrong one') },
    },
    handler: async ({ request, ctx, credentials }) => {
      const reading = server.read(webhookDocument(request.body, server.fields), text(queryOf(request).user));
      if ('ignored' in reading) return { status: 'ignored', reason: reading.ignored };
      return recordPlaybackEvent(ctx, credentials.userId, reading.event, server.name);
    },
  };
}

export const mediaServerEndpoints: readonly AnyEndpoint[] = SERVERS.map(endpointOf);

/** The media servers' webhooks under /media-servers, with multipart bodies read within bounds. */
export function registerMediaServers(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      acceptMultipartFields(scope, MULTIPART_LIMITS);
      setProtocolErrorPath(scope, PLAIN_HTTP);
      registerEndpoints(scope, ctx, mediaServerEndpoints, MEDIA_SERVERS_PREFIX);
    },
    { prefix: MEDIA_SERVERS_PREFIX },
  );
}
