import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../../toolkit/errors.ts';
import type { AppContext } from '../../core/context.ts';
import { parseFeedback, recordFeedback, userFeedback } from './feedback.ts';
import { importService, latestImport, parseLatestImport, updateLatestImport } from './latest-import.ts';
import { DEFAULT_ITEMS_PER_GET, firstQueryValue, integerArgument, MAX_ITEMS_PER_GET, nonNegativeParam, type QueryValue } from './listens.ts';
import { dailyActivity, entityStats, listeningActivity, type Entity } from './stats.ts';
import { statsRangeFrom } from './stats-ranges.ts';
import type { TokenAuthentication } from './token.ts';
import { userNamed } from './users.ts';

type Query = Record<string, QueryValue>;
type UserRequest = FastifyRequest<{ Params: { user_name: string }; Querystring: Query }>;

const bodyText = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

/** ListenBrainz answers 204 with no body when a user has no statistics for the range. */
const orNoContent = (reply: FastifyReply, body: object | null) => body ?? reply.code(204).send();

function pageFrom(query: Query) {
  return { count: Math.min(nonNegativeParam(query, 'count', DEFAULT_ITEMS_PER_GET), MAX_ITEMS_PER_GET), offset: nonNegativeParam(query, 'offset', 0) };
}

/** /1/stats/user/{user}/…: top lists and activity over ListenBrainz's ranges, live. */
export function statsRoutes(scope: FastifyInstance, ctx: AppContext): void {
  for (const entity of ['artists', 'releases', 'recordings'] as Entity[]) {
    scope.get(`/stats/user/:user_name/${entity}`, async (request: UserRequest, reply) => {
      const user = await userNamed(ctx, request.params.user_name);
      const range = statsRangeFrom(firstQueryValue(request.query.range));
      return orNoContent(reply, await entityStats(ctx.db, user, entity, range, pageFrom(request.query)));
    });
  }
  scope.get('/stats/user/:user_name/listening-activity', async (request: UserRequest, reply) => {
    const user = await userNamed(ctx, request.params.user_name);
    return orNoContent(reply, await listeningActivity(ctx.db, user, statsRangeFrom(firstQueryValue(request.query.range))));
  });
  scope.get('/stats/user/:user_name/daily-activity', async (request: UserRequest, reply) => {
    const user = await userNamed(ctx, request.params.user_name);
    return orNoContent(reply, await dailyActivity(ctx.db, user, statsRangeFrom(firstQueryValue(request.query.range))));
  });
}

function booleanArgument(name: string, value: QueryValue): boolean {
  const text = firstQueryValue(value)?.trim().toLowerCase();
  if (!text) return false;
  if (text !== 'true' && text !== 'false') throw invalidRequest(`Invalid ${name} argument: ${text}`);
  return text === 'true';
}

/** Recording feedback (love, hate, clear) and a user's feedback list. */
export function feedbackRoutes(scope: FastifyInstance, ctx: AppContext, auth: TokenAuthentication): void {
  scope.post('/feedback/recording-feedback', { onRequest: auth.onRequest }, async (request) => {
    await recordFeedback(ctx.db, auth.owner(request).userId, parseFeedback(bodyText(request)));
    return { status: 'ok' };
  });
  scope.get('/feedback/user/:user_name/get-feedback', async (request: UserRequest) => {
    const score = integerArgument('score', request.query.score);
    const metadata = booleanArgument('metadata', request.query.metadata);
    const page = pageFrom(request.query);
    const user = await userNamed(ctx, request.params.user_name);
    // As on ListenBrainz, score 0 (or none) lists loves and hates alike.
    if (score && score !== 1 && score !== -1) throw invalidRequest('Score can have a value of 1 or -1.');
    return userFeedback(ctx.db, user, { score: score ? (score as 1 | -1) : undefined, metadata, ...page });
  });
}

/** latest-import: read by anyone for a user, moved forward with the user's token. */
export function latestImportRoutes(scope: FastifyInstance, ctx: AppContext, auth: TokenAuthentication): void {
  scope.get('/latest-import', async (request: FastifyRequest<{ Querystring: Query }>) => {
    const service = importService(firstQueryValue(request.query.service));
    const user = await userNamed(ctx, firstQueryValue(request.query.user_name) ?? '');
    return { musicbrainz_id: user.handle, latest_import: await latestImport(ctx.db, user.id, service) };
  });
  scope.post('/latest-import', { onRequest: auth.onRequest }, async (request) => {
    const { ts, service } = parseLatestImport(bodyText(request));
    await updateLatestImport(ctx.db, auth.owner(request).userId, service, ts);
    return { status: 'ok' };
  });
}
