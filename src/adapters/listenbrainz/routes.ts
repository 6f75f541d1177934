import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequest } from '../../toolkit/errors.ts';
import { authenticateApiKey } from '../../core/auth/api-keys.ts';
import type { AppContext } from '../../core/context.ts';
import { deletePlaysAt } from '../../core/scrobbling/corrections.ts';
import { ingestListens, updateNowPlaying } from '../../core/scrobbling/ingest.ts';
import type { AnyEndpoint } from '../http/endpoint.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { parseDeleteListen } from './delete-listen.ts';
import { firstQueryValue, listenCount, listensPage, listensWindowFrom, listenTimestamps, playingNow, type QueryValue } from './listens.ts';
import { listensPayload, playingNowPayload, type SubmissionPayload } from './outcomes.ts';
import { LISTENBRAINZ, listenBrainzEndpoint, queryParameter, sendListenBrainzError, USER_TOKEN, userNameParameter } from './protocol.ts';
import { feedbackEndpoints, latestImportEndpoints, sitewideStatsEndpoints, statsEndpoints } from './read-routes.ts';
import { MAX_LISTEN_PAYLOAD_SIZE, parseSubmission, type Submission } from './submission.ts';
import { tokenFromHeader } from './token.ts';
import { userNamed } from './users.ts';

type Query = Record<string, QueryValue>;
const queryOf = (request: FastifyRequest) => request.query as Query;
const userNameOf = (request: FastifyRequest) => (request.params as { user_name: string }).user_name;

async function store(ctx: AppContext, userId: string, submission: Submission): Promise<SubmissionPayload> {
  if (submission.listenType === 'playing_now') {
    const [listen] = submission.listens;
    return playingNowPayload(await updateNowPlaying(ctx, userId, { ...listen!.metadata, submitted: listen!.raw }));
  }
  const listens = submission.listens.map((listen) => ({
    ...listen.metadata,
    listenedAt: new Date(listen.listenedAt! * 1000),
    playedMs: listen.playedMs,
    submitted: listen.raw,
  }));
  return listensPayload(await ingestListens(ctx, userId, listens, 'listenbrainz'));
}

const bodyText = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

const listensEndpoints: readonly AnyEndpoint[] = [
  // `status` is all ListenBrainz answers; `payload` says what became of each listen.
  listenBrainzEndpoint({
    method: 'POST',
    path: '/1/submit-listens',
    summary: 'Submits listens (single, import) or the track playing now',
    credentials: USER_TOKEN,
    openapi: { operationId: 'submitListens', body: '{ listen_type, payload: [listens] }', answer: '{ status: "ok", payload: what became of each listen }' },
    handler: async ({ request, ctx, credentials }) => ({ status: 'ok', payload: await store(ctx, credentials.userId, parseSubmission(bodyText(request))) }),
  }),
  // As ListenBrainz does, a listen that is not there (already deleted, never stored) is still 'ok':
  // the client's wish, that the listen be gone, holds.
  listenBrainzEndpoint({
    method: 'POST',
    path: '/1/delete-listen',
    summary: 'Deletes one of the user’s listens',
    credentials: USER_TOKEN,
    openapi: { operationId: 'deleteListen', body: '{ listened_at, recording_msid }', answer: '{ status: "ok" }' },
    handler: async ({ request, ctx, credentials }) => {
      const { listenedAt, recordingMsid } = parseDeleteListen(bodyText(request));
      await deletePlaysAt(ctx.db, credentials.userId, listenedAt, { trackId: recordingMsid });
      return { status: 'ok' };
    },
  }),
  // The token checked here is the subject, not the caller's credentials: it may come in the header or the query.
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/validate-token',
    summary: 'Whether a user token is valid, and whose it is',
    openapi: {
      operationId: 'validateToken',
      parameters: [queryParameter('token', 'the token, when not sent as Authorization: Token <token>', 'string')],
      answer: '{ code: 200, message, valid, user_name? }',
    },
    handler: async ({ request, ctx }) => {
      const header = request.headers.authorization;
      const token = header?.trim() ? tokenFromHeader(header) : firstQueryValue(queryOf(request).token)?.trim();
      if (token === '' || token === undefined) throw invalidRequest('You need to provide an Authorization token.');
      const owner = token === null ? null : await authenticateApiKey(ctx.db, token);
      if (!owner) return { code: 200, message: 'Token invalid.', valid: false };
      return { code: 200, message: 'Token valid.', valid: true, user_name: owner.handle };
    },
  }),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/user/:user_name/listens',
    summary: "A user's listens, newest first",
    openapi: {
      operationId: 'getUserListens',
      parameters: [
        userNameParameter,
        queryParameter('count', 'how many'),
        queryParameter('min_ts', 'only listens after this UNIX time'),
        queryParameter('max_ts', 'only listens before this UNIX time'),
      ],
      answer: '{ payload: { count, user_id, listens, latest_listen_ts, oldest_listen_ts } }',
    },
    handler: async ({ request, ctx }) => {
      const window = listensWindowFrom(queryOf(request));
      const user = await userNamed(ctx, userNameOf(request));
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
    },
  }),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/user/:user_name/listen-count',
    summary: 'How many listens a user has',
    openapi: { operationId: 'getUserListenCount', parameters: [userNameParameter], answer: '{ payload: { count } }' },
    handler: async ({ request, ctx }) => {
      const user = await userNamed(ctx, userNameOf(request));
      return { payload: { count: await listenCount(ctx.db, user.id) } };
    },
  }),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/user/:user_name/playing-now',
    summary: 'The track a user is playing now, if any',
    openapi: { operationId: 'getUserPlayingNow', parameters: [userNameParameter], answer: '{ payload: { count, user_id, listens, playing_now: true } }' },
    handler: async ({ request, ctx }) => {
      const user = await userNamed(ctx, userNameOf(request));
      const listen = await playingNow(ctx, user.id);
      return { payload: { count: listen ? 1 : 0, user_id: user.handle, listens: listen ? [listen] : [], playing_now: true } };
    },
  }),
];

/** Every ListenBrainz endpoint, each path written in full. */
export const listenBrainzEndpoints: readonly AnyEndpoint[] = [
  ...listensEndpoints,
  ...latestImportEndpoints,
  ...statsEndpoints,
  ...sitewideStatsEndpoints,
  ...feedbackEndpoints,
];

/**
 * ListenBrainz API v1 under /1: submission, deletion, feedback and latest-import with an
 * Earshot API key as the user token, and the public reads of a user's listens, count,
 * current track, statistics, feedback and latest import, and of the sitewide statistics.
 */
export function registerListenBrainz(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      // ListenBrainz reads the raw body whatever its content type, and parses the JSON itself.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_LISTEN_PAYLOAD_SIZE }, (_request, body, done) => done(null, body));
      setProtocolErrorPath(scope, LISTENBRAINZ);
      scope.setNotFoundHandler((request, reply) => sendListenBrainzError(reply, 404, `No route ${request.method} ${request.url.split('?')[0]}`));
      registerEndpoints(scope, ctx, listenBrainzEndpoints, '/1');
    },
    { prefix: '/1' },
  );
}
