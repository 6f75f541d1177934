import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest, XrpcError } from '../../toolkit/errors.ts';
import { authenticateApiKey } from '../../core/auth/api-keys.ts';
import type { AppContext } from '../../core/context.ts';
import { deletePlaysAt } from '../../core/scrobbling/corrections.ts';
import { ingestListens, updateNowPlaying } from '../../core/scrobbling/ingest.ts';
import { parseDeleteListen } from './delete-listen.ts';
import { firstQueryValue, listenCount, listensPage, listensWindowFrom, listenTimestamps, playingNow, type QueryValue } from './listens.ts';
import { listensPayload, playingNowPayload, type SubmissionPayload } from './outcomes.ts';
import { feedbackRoutes, latestImportRoutes, statsRoutes } from './read-routes.ts';
import { MAX_LISTEN_PAYLOAD_SIZE, parseSubmission, payloadTooLarge, type Submission } from './submission.ts';
import { tokenAuthentication, tokenFromHeader } from './token.ts';
import { userNamed } from './users.ts';

type UserRequest = FastifyRequest<{ Params: { user_name: string }; Querystring: Record<string, QueryValue> }>;

/** ListenBrainz's error body: `{ code, error }` with the HTTP status as the code. */
function sendError(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).send({ code: status, error: message });
}

function handleError(error: FastifyError | XrpcError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof XrpcError) return sendError(reply, error.status, error.message);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, 400, payloadTooLarge().message);
  const status = error.statusCode ?? 500;
  if (status < 500) return sendError(reply, status, error.message);
  request.log.error({ err: error }, 'listenbrainz request failed');
  return sendError(reply, 500, 'Something went wrong. Please try again.');
}

async function store(ctx: AppContext, userId: string, submission: Submission): Promise<SubmissionPayload> {
  if (submission.listenType === 'playing_now') {
    const [listen] = submission.listens;
    return playingNowPayload(await updateNowPlaying(ctx, userId, { ...listen!.metadata, submitted: listen!.raw }));
  }
  const listens = submission.listens.map((listen) => ({ ...listen.metadata, listenedAt: new Date(listen.listenedAt! * 1000), submitted: listen.raw }));
  return listensPayload(await ingestListens(ctx, userId, listens, 'listenbrainz'));
}

function routes(scope: FastifyInstance, ctx: AppContext): void {
  const auth = tokenAuthentication(ctx.db);
  const { onRequest } = auth;
  // `status` is all ListenBrainz answers; `payload` says what became of each listen.
  scope.post('/submit-listens', { onRequest }, async (request) => {
    const payload = await store(ctx, auth.owner(request).userId, parseSubmission(typeof request.body === 'string' ? request.body : ''));
    return { status: 'ok', payload };
  });

  // As ListenBrainz does, a listen that is not there (already deleted, never stored) is still 'ok':
  // the client's wish, that the listen be gone, holds.
  scope.post('/delete-listen', { onRequest }, async (request) => {
    const owner = auth.owner(request);
    const { listenedAt, recordingMsid } = parseDeleteListen(typeof request.body === 'string' ? request.body : '');
    await deletePlaysAt(ctx.db, owner.userId, listenedAt, { trackId: recordingMsid });
    return { status: 'ok' };
  });

  scope.get('/validate-token', async (request: FastifyRequest<{ Querystring: { token?: QueryValue } }>) => {
    const header = request.headers.authorization;
    const token = header?.trim() ? tokenFromHeader(header) : firstQueryValue(request.query.token)?.trim();
    if (token === '' || token === undefined) throw invalidRequest('You need to provide an Authorization token.');
    const owner = token === null ? null : await authenticateApiKey(ctx.db, token);
    if (!owner) return { code: 200, message: 'Token invalid.', valid: false };
    return { code: 200, message: 'Token valid.', valid: true, user_name: owner.handle };
  });

  scope.get('/user/:user_name/listens', async (request: UserRequest) => {
    const window = listensWindowFrom(request.query);
    const user = await userNamed(ctx, request.params.user_name);
    const [listens, timestamps] = await Promise.all([listensPage(ctx.db, user, window), listenTimestamps(ctx.db, user.id)]);
    return {
      payload: {
        count: listens.length,
        user_id: user.handle,
        listens,
        latest_listen_ts: timestamps.latest,
        oldest_listen_ts: timestamps.oldest,
      },
    };
  });

  scope.get('/user/:user_name/listen-count', async (request: UserRequest) => {
    const user = await userNamed(ctx, request.params.user_name);
    return { payload: { count: await listenCount(ctx.db, user.id) } };
  });

  scope.get('/user/:user_name/playing-now', async (request: UserRequest) => {
    const user = await userNamed(ctx, request.params.user_name);
    const listen = await playingNow(ctx, user.id);
    return { payload: { count: listen ? 1 : 0, user_id: user.handle, listens: listen ? [listen] : [], playing_now: true } };
  });

  latestImportRoutes(scope, ctx, auth);
  statsRoutes(scope, ctx);
  feedbackRoutes(scope, ctx, auth);
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/**
 * Declares `declare`'s routes, then answers every other method on their paths
 * with ListenBrainz's 405 rather than the scope's 404.
 */
function withMethodNotAllowed(scope: FastifyInstance, declare: () => void): void {
  const allowed = new Map<string, Set<string>>();
  scope.addHook('onRoute', (route) => {
    const methods = allowed.get(route.routePath) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    allowed.set(route.routePath, methods);
  });
  declare();
  for (const [path, methods] of [...allowed]) {
    const others = OTHER_METHODS.filter((method) => !methods.has(method));
    const allow = [...methods].join(', ');
    scope.route({ method: others, url: path, handler: (_request, reply) => sendError(reply.header('allow', allow), 405, 'The method is not allowed for the requested URL.') });
  }
}

/**
 * ListenBrainz API v1 under /1: submission, deletion, feedback and latest-import with an
 * Earshot API key as the user token, and the public reads of a user's listens, count,
 * current track, statistics, feedback and latest import.
 */
export function registerListenBrainz(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      // ListenBrainz reads the raw body whatever its content type, and parses the JSON itself.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_LISTEN_PAYLOAD_SIZE }, (_request, body, done) => done(null, body));
      scope.setErrorHandler(handleError);
      scope.setNotFoundHandler((request, reply) => sendError(reply, 404, `No route ${request.method} ${request.url.split('?')[0]}`));
      withMethodNotAllowed(scope, () => routes(scope, ctx));
    },
    { prefix: '/1' },
  );
}
