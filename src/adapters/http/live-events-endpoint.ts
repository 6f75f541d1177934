/**
 * GET /events: a server-sent events stream of what is playing now and each new play
 * (core/live). Everyone's, as the public feed shows them to anyone; `user` narrows it to one
 * person's (a profile), `own=true` to the caller's, which needs credentials (Authorization:
 * Bearer; a browser's EventSource cannot send the header, so the web app reads the stream with
 * fetch). A comment every 15 s keeps proxies from closing an idle stream.
 */
import type { ServerResponse } from 'node:http';
import { liveBusOf, type LiveMessage } from '../../core/live/bus.ts';
import { invalidRequest, XrpcError } from '../../toolkit/errors.ts';
import { bearerCredentials } from './bearer.ts';
import type { Endpoint } from './endpoint.ts';
import { PLAIN_HTTP } from './xrpc-protocol.ts';
import type { Viewer } from '../../core/auth/viewer.ts';

const HEARTBEAT_MS = 15_000;
/** Streams one account (or, without credentials, one address) may hold open on one process: a few tabs, not a flood. */
export const STREAMS_PER_CLIENT = 8;

const open = new Map<string, number>();
/** Each host's open streams, ended before the host closes (api-host.ts), so a stream never holds a shutdown up. */
const streamsOf = new WeakMap<object, Set<() => void>>();

export function endLiveStreams(server: object): void {
  for (const end of streamsOf.get(server) ?? []) end();
}

function heldBy(key: string, delta: number): number {
  const count = (open.get(key) ?? 0) + delta;
  if (count <= 0) open.delete(key);
  else open.set(key, count);
  return count;
}

export const liveEventsEndpoint: Endpoint<Viewer | null> = {
  method: 'GET',
  path: '/events',
  host: 'api',
  protocol: PLAIN_HTTP,
  summary: 'Live events (server-sent events): nowPlaying and scrobble, for everyone, one user, or the caller',
  credentials: bearerCredentials('optional'),
  openapi: {
    operationId: 'getEvents',
    tags: ['live'],
    parameters: [
      { name: 'user', in: 'query', required: false, description: "only this user's events: a DID or handle", schema: { type: 'string', maxLength: 256 } },
      { name: 'own', in: 'query', required: false, description: "true: only the caller's events (needs credentials)", schema: { type: 'boolean' } },
    ],
    responses: {
      '200': {
        description: 'A text/event-stream: `event: nowPlaying` or `event: scrobble`, each with a JSON `data` line',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '400': { description: 'InvalidRequest', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
      '401': { description: 'AuthMissing', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
      '429': { description: 'RateLimitExceeded', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } },
    },
  },
  handler: async ({ request, reply, ctx, credentials }) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.own !== undefined && query.own !== 'true' && query.own !== 'false') throw invalidRequest('own must be true or false');
    if (query.user !== undefined && (query.user === '' || query.user.length > 256)) throw invalidRequest('user must be a DID or handle');
    let onlyUser: string | null = null;
    if (query.own === 'true') {
      if (!credentials) throw new XrpcError(401, 'AuthMissing', 'own=true needs credentials: Authorization: Bearer');
      onlyUser = credentials.userId;
    } else if (query.user !== undefined) {
      const user = await ctx.db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('did', '=', query.user!), eb('handle', '=', query.user!)]))
        .executeTakeFirst();
      if (!user) throw new XrpcError(404, 'NotFound', `no user ${query.user}`);
      onlyUser = user.id;
    }
    const client = credentials ? `user:${credentials.userId}` : `ip:${request.ip}`;
    if ((open.get(client) ?? 0) >= STREAMS_PER_CLIENT) {
      throw new XrpcError(429, 'RateLimitExceeded', `at most ${STREAMS_PER_CLIENT} live streams at once; close another first`);
    }
    heldBy(client, 1);
    reply.hijack();
    const raw: ServerResponse = reply.raw;
    // The headers hooks set (CORS, security) are kept: the reply is written by hand from here.
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 3000\n\n');
    const send = ({ userId, event }: LiveMessage) => {
      if (onlyUser === null || userId === onlyUser) raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const unsubscribe = liveBusOf(ctx).subscribe(send);
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const streams = streamsOf.get(request.server.server) ?? new Set();
    streamsOf.set(request.server.server, streams);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      streams.delete(end);
      heldBy(client, -1);
      raw.end();
    };
    streams.add(end);
    request.raw.on('close', end);
  },
};
