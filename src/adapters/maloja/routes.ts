import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateApiKey, type ApiKeyOwner } from '../../core/auth/api-keys.ts';
import type { AppContext } from '../../core/context.ts';
import { readiness } from '../../core/ops/readiness.ts';
import { ingestListens, type ListenOutcome } from '../../core/scrobbling/ingest.ts';
import { authenticationFailed, MalojaError, sendMalojaError } from './errors.ts';
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
  warnings: [{ type: 'scrobble_exists', value: null, desc: 'This scrobble exists in the database (same timestamp and track). The submitted scrobble was not added.' }],
};

/** A scrobble the catalog turned away (UNMATCHED_SCROBBLES=skip): worded so clients see it was not added. */
function notAdded(reason: string) {
  return { status: 'success', desc: 'The scrobble was not added.', track: {}, warnings: [{ type: 'scrobble_ignored', value: reason, desc: `The submitted scrobble was not added: ${reason}.` }] };
}

function answer({ artists, listen, warnings }: MalojaScrobble, outcome: ListenOutcome) {
  if (outcome.status === 'duplicate') return ALREADY_STORED;
  if (outcome.status === 'ignored') return notAdded(outcome.reason);
  const scrobbled = { status: 'success', track: { artists, title: listen.title }, desc: `Scrobbled ${listen.title} by ${artists.join(', ')}` };
  return warnings.length > 0 ? { ...scrobbled, warnings } : scrobbled;
}

function routes(scope: FastifyInstance, ctx: AppContext): void {
  // The key is checked before the fields, as Maloja does: a stranger learns nothing about the rest.
  scope.post('/newscrobble', { bodyLimit: MALOJA_BODY_LIMIT }, async (request) => {
    const fields = requestFields(request);
    const owner = await keyOwner(ctx, fields);
    if (!owner) throw authenticationFailed();
    const scrobble = parseScrobble(fields);
    const [outcome] = await ingestListens(ctx, owner.userId, [scrobble.listen], 'maloja');
    return answer(scrobble, outcome!);
  });

  // Without a key this only pings the server, as Maloja's does; with one it says whether the key is good.
  scope.get('/test', async (request, reply) => {
    const fields = requestFields(request);
    if (fields.has('key') || fields.has('apikey')) {
      if (!(await keyOwner(ctx, fields))) return reply.status(403).send({ status: 'error', error: 'Wrong API key' });
    }
    return { status: 'ok' };
  });

  // Maloja is single-user and lists its scrobbles to anyone. Here the list is the key owner's; a
  // request without a key names no one and gets an empty list, which a client that checks for
  // duplicates before it submits (multi-scrobbler) takes as "nothing yet": Earshot refuses the
  // duplicates itself.
  scope.get('/scrobbles', async (request) => {
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
      pagination: { page: page.page, perpage: page.perpage, next_page: more ? pageUrl(page.page + 1) : null, prev_page: page.page > 0 ? pageUrl(page.page - 1) : null },
    };
  });

  scope.get('/serverinfo', async () => {
    const healthy = (await readiness(ctx.db)).ready;
    return {
      name: 'Earshot',
      version: MALOJA_API_VERSION.split('.'),
      versionstring: MALOJA_API_VERSION,
      db_status: { healthy, rebuildinprogress: false, complete: healthy },
    };
  });
}

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
      scope.setErrorHandler(sendMalojaError);
      scope.setNotFoundHandler(notFound);
      routes(scope, ctx);
    },
    { prefix: '/apis/mlj_1' },
  );
}
