import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateApiKey, type ApiKeyOwner } from '../../core/auth/api-keys.ts';
import type { AppContext } from '../../core/context.ts';
import { readiness } from '../../core/ops/readiness.ts';
import { deletePlaysAt } from '../../core/scrobbling/corrections.ts';
import { ingestListens, type ListenOutcome } from '../../core/scrobbling/ingest.ts';
import { authenticationFailed, MALOJA, MalojaError, malformedRequest } from './errors.ts';
import type { AnyEndpoint, CredentialCheck, Endpoint } from '../http/endpoint.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { acceptMalojaBodies, MALOJA_BODY_LIMIT, malojaKey, requestFields, type Fields } from './fields.ts';
import { parseScrobble, type MalojaScrobble } from './scrobble.ts';
import { listScrobbles, parseScrobblePage } from './scrobble-list.ts';

/**
 * The Maloja release whose API this host speaks. Clients gate features on it: multi-scrobbler
 * refuses servers older than 3.0.0 and sends albums only to 3.2.0 and later.
 */
const MALOJA_API_VERSION = '3.2.6';

async function keyOwner(ctx: AppContext, fields: Fields): Promise<ApiKeyOwner | null> {
  const key = malojaKey(fields);
  return key ? authenticateApiKey(ctx.db, key) : null;
}

/** Maloja's answer to a scrobble it already has: a success that says nothing was added. */
const ALREADY_STORED = {
  status: 'success',
  desc: 'The scrobble is present in the database.',
  track: {},
  warnings: [
    { type: 'scrobble_exists', value: null, desc: 'This scrobble exists in the database (same timestamp and track). The submitted scrobble was not added.' },
  ],
};

/** A scrobble the catalog turned away (UNMATCHED_SCROBBLES=skip): worded so clients see it was not added. */
function notAdded(reason: string) {
  return {
    status: 'success',
    desc: 'The scrobble was not added.',
    track: {},
    warnings: [{ type: 'scrobble_ignored', value: reason, desc: `The submitted scrobble was not added: ${reason}.` }],
  };
}

function answer({ artists, listen, warnings }: MalojaScrobble, outcome: ListenOutcome) {
  if (outcome.status === 'duplicate') return ALREADY_STORED;
  if (outcome.status === 'ignored') return notAdded(outcome.reason);
  const scrobbled = { status: 'success', track: { artists, title: listen.title }, desc: `Scrobbled ${listen.title} by ${artists.join(', ')}` };
  return warnings.length > 0 ? { ...scrobbled, warnings } : scrobbled;
}

const ERROR_ANSWER = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { status: { enum: ['failure', 'error'] }, error: { type: 'object' } }, required: ['status', 'error'] },
    },
  },
});
const JSON_ANSWER = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
const KEY_PARAMETERS = ['key', 'apikey'].map((name) => ({
  name,
  in: 'query',
  required: false,
  description: 'an Earshot API key (also in the body)',
  schema: { type: 'string' },
}));

/** delete_scrobble's `timestamp`: whole UNIX seconds, as a number (JSON) or text (query, form). */
function scrobbleTimestamp(fields: Fields): number {
  const value = fields.get('timestamp');
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,12}$/.test(text.trim())) throw malformedRequest("timestamp must be the scrobble's UNIX time in whole seconds");
  return Number(text);
}

type Declaration<C> = Omit<Endpoint<C>, 'host' | 'protocol'>;

/** A Maloja endpoint on the scrobbler host, tagged and answering errors in Maloja's shape. */
function malojaEndpoint<C = undefined>(declaration: Declaration<C>): Endpoint<C> {
  const openapi = declaration.openapi as { responses: Record<string, unknown> };
  return {
    ...declaration,
    host: 'scrobbler',
    protocol: MALOJA,
    openapi: {
      tags: ['maloja'],
      ...declaration.openapi,
      responses: {
        ...openapi.responses,
        '400': ERROR_ANSWER('malformed_request, missing_scrobble_data or invalid_scrobble_data'),
        '500': ERROR_ANSWER('unknown_error'),
      },
    },
  };
}

/** The key is checked before the fields, as Maloja does: a stranger learns nothing about the rest. */
const MALOJA_KEY: CredentialCheck<ApiKeyOwner> = {
  stage: 'body',
  description: 'an Earshot API key as `key` or `apikey`, in the query or the body',
  check: async (request, ctx) => {
    const owner = await keyOwner(ctx, requestFields(request));
    if (!owner) throw authenticationFailed();
    return owner;
  },
};

export const malojaEndpoints: readonly AnyEndpoint[] = [
  malojaEndpoint({
    method: 'POST',
    path: '/apis/mlj_1/newscrobble',
    summary: 'Scrobbles one track',
    credentials: MALOJA_KEY,
    route: { bodyLimit: MALOJA_BODY_LIMIT },
    openapi: {
      operationId: 'malojaNewScrobble',
      description: `Credentials: ${MALOJA_KEY.description}.`,
      parameters: KEY_PARAMETERS,
      requestBody: {
        required: true,
        description: 'artists or artist, title, album, albumartists, duration, length, time, as JSON or a form',
        content: { 'application/json': { schema: { type: 'object' } }, 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
      },
      responses: { '200': JSON_ANSWER('{ status: "success", track, desc, warnings? }'), '403': ERROR_ANSWER('authentication_fail') },
    },
    handler: async ({ request, ctx, credentials }) => {
      const scrobble = parseScrobble(requestFields(request));
      const [outcome] = await ingestListens(ctx, credentials.userId, [scrobble.listen], 'maloja');
      return answer(scrobble, outcome!);
    },
  }),
  // Maloja names a scrobble by its time (its primary key), so every play of the key owner's in that
  // second goes, through the core's deletion as any other (statistics, relay). As Maloja does, a
  // time with no scrobble is a success too: the scrobble is not there.
  malojaEndpoint({
    method: 'POST',
    path: '/apis/mlj_1/delete_scrobble',
    summary: 'Deletes the scrobble at a time',
    credentials: MALOJA_KEY,
    route: { bodyLimit: MALOJA_BODY_LIMIT },
    openapi: {
      operationId: 'malojaDeleteScrobble',
      description: `Credentials: ${MALOJA_KEY.description}.`,
      parameters: [
        ...KEY_PARAMETERS,
        { name: 'timestamp', in: 'query', required: false, description: "the scrobble's UNIX time (also in the body)", schema: { type: 'integer' } },
      ],
      responses: { '200': JSON_ANSWER('{ status: "success", desc }'), '403': ERROR_ANSWER('authentication_fail') },
    },
    handler: async ({ request, ctx, credentials }) => {
      await deletePlaysAt(ctx.db, credentials.userId, scrobbleTimestamp(requestFields(request)));
      return { status: 'success', desc: 'Scrobble was deleted!' };
    },
  }),
  // Without a key this only pings the server, as Maloja's does; with one it says whether the key is
  // good: the key is what it tests, not a credential it needs.
  malojaEndpoint({
    method: 'GET',
    path: '/apis/mlj_1/test',
    summary: 'Pings the server, or tests a key',
    openapi: {
      operationId: 'malojaTest',
      security: [],
      parameters: KEY_PARAMETERS,
      responses: { '200': JSON_ANSWER('{ status: "ok" }'), '403': JSON_ANSWER('{ status: "error", error: "Wrong API key" }') },
    },
    handler: async ({ request, reply, ctx }) => {
      const fields = requestFields(request);
      if (fields.has('key') || fields.has('apikey')) {
        if (!(await keyOwner(ctx, fields))) return reply.status(403).send({ status: 'error', error: 'Wrong API key' });
      }
      return { status: 'ok' };
    },
  }),
  // Maloja is single-user and lists its scrobbles to anyone. Here the list is the key owner's; a
  // request without a key names no one and gets an empty list, which a client that checks for
  // duplicates before it submits (multi-scrobbler) takes as "nothing yet": Earshot refuses the
  // duplicates itself.
  malojaEndpoint({
    method: 'GET',
    path: '/apis/mlj_1/scrobbles',
    summary: "The key owner's scrobbles, a page at a time; none without a key",
    openapi: {
      operationId: 'malojaScrobbles',
      parameters: [
        ...KEY_PARAMETERS,
        { name: 'page', in: 'query', required: false, schema: { type: 'integer' } },
        { name: 'perpage', in: 'query', required: false, schema: { type: 'integer' } },
      ],
      responses: { '200': JSON_ANSWER('{ status: "ok", list, pagination }'), '403': ERROR_ANSWER('authentication_fail: a key was sent and is wrong') },
    },
    handler: async ({ request, ctx }) => {
      const fields = requestFields(request);
      const page = parseScrobblePage(fields);
      const keyed = fields.has('key') || fields.has('apikey');
      const owner = keyed ? await keyOwner(ctx, fields) : null;
      if (keyed && !owner) throw authenticationFailed();
      const { list, more } = owner ? await listScrobbles(ctx.db, owner.userId, page) : { list: [], more: false };
      const pageUrl = (n: number) => `/apis/mlj_1/scrobbles?page=${n}&perpage=${page.perpage}`;
      return {
        status: 'ok',
        list,
        pagination: {
          page: page.page,
          perpage: page.perpage,
          next_page: more ? pageUrl(page.page + 1) : null,
          prev_page: page.page > 0 ? pageUrl(page.page - 1) : null,
        },
      };
    },
  }),
  malojaEndpoint({
    method: 'GET',
    path: '/apis/mlj_1/serverinfo',
    summary: "The Maloja release spoken, and the database's health",
    openapi: { operationId: 'malojaServerInfo', security: [], responses: { '200': JSON_ANSWER('{ name, version, versionstring, db_status }') } },
    handler: async ({ ctx }) => {
      const healthy = (await readiness(ctx.db)).ready;
      return {
        name: 'Earshot',
        version: MALOJA_API_VERSION.split('.'),
        versionstring: MALOJA_API_VERSION,
        db_status: { healthy, rebuildinprogress: false, complete: healthy },
      };
    },
  }),
];

function notFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  return reply.status(404).send(new MalojaError(404, 'not_found', path, `No route ${request.method} ${path}`, 'error').body());
}

/**
 * Maloja's native API (mlj_1) under /apis/mlj_1: scrobble submission with an Earshot API key as
 * Maloja's key, the key test and the server information clients check before they submit.
 */
export function registerMaloja(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      acceptMalojaBodies(scope);
      setProtocolErrorPath(scope, MALOJA);
      scope.setNotFoundHandler(notFound);
      registerEndpoints(scope, ctx, malojaEndpoints, '/apis/mlj_1');
    },
    { prefix: '/apis/mlj_1' },
  );
}
