import type { FastifyReply, FastifyRequest } from 'fastify';
import { heavyRead } from '../../toolkit/db/heavy-read.ts';
import { invalidRequest } from '../../toolkit/errors.ts';
import type { AnyEndpoint } from '../http/endpoint.ts';
import { parseFeedback, recordFeedback, userFeedback } from './feedback.ts';
import { importService, latestImport, parseLatestImport, updateLatestImport } from './latest-import.ts';
import { DEFAULT_ITEMS_PER_GET, firstQueryValue, integerArgument, MAX_ITEMS_PER_GET, nonNegativeParam, type QueryValue } from './listens.ts';
import { listenBrainzEndpoint, queryParameter, USER_TOKEN, userNameParameter } from './protocol.ts';
import { dailyActivity, entityStats, listeningActivity, type Entity } from './stats.ts';
import { statsRangeFrom } from './stats-ranges.ts';
import { userNamed } from './users.ts';

type Query = Record<string, QueryValue>;
const queryOf = (request: FastifyRequest) => request.query as Query;
const userNameOf = (request: FastifyRequest) => (request.params as { user_name: string }).user_name;

const bodyText = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

/** ListenBrainz answers 204 with no body when there are no statistics for the range. */
const orNoContent = (reply: FastifyReply, body: object | null) => body ?? reply.code(204).send();

function pageFrom(query: Query) {
  return { count: Math.min(nonNegativeParam(query, 'count', DEFAULT_ITEMS_PER_GET), MAX_ITEMS_PER_GET), offset: nonNegativeParam(query, 'offset', 0) };
}

const pageParameters = [queryParameter('count', `how many, up to ${MAX_ITEMS_PER_GET}`), queryParameter('offset', 'how many to skip')];
const rangeParameter = queryParameter('range', 'this_week, this_month, this_year, week, month, quarter, half_yearly, year or all_time', 'string');

/** /1/stats/user/{user}/…: top lists and activity over ListenBrainz's ranges, live. */
export const statsEndpoints: readonly AnyEndpoint[] = [
  ...(['artists', 'releases', 'recordings'] as Entity[]).map((entity) =>
    listenBrainzEndpoint({
      method: 'GET',
      path: `/1/stats/user/:user_name/${entity}`,
      summary: `A user's top ${entity} over a range`,
      openapi: {
        operationId: `getUserTop${entity}`,
        parameters: [userNameParameter, rangeParameter, ...pageParameters],
        answer: `The top ${entity}`,
        noContent: true,
      },
      handler: async ({ request, reply, ctx }) => {
        const user = await userNamed(ctx, userNameOf(request));
        const range = statsRangeFrom(firstQueryValue(queryOf(request).range));
        return orNoContent(reply, await entityStats(ctx.db, user, entity, range, pageFrom(queryOf(request))));
      },
    }),
  ),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/stats/user/:user_name/listening-activity',
    summary: "A user's listen counts over the range's periods",
    openapi: { operationId: 'getUserListeningActivity', parameters: [userNameParameter, rangeParameter], answer: 'Listen counts by period', noContent: true },
    handler: async ({ request, reply, ctx }) => {
      const user = await userNamed(ctx, userNameOf(request));
      return orNoContent(reply, await listeningActivity(ctx.db, user, statsRangeFrom(firstQueryValue(queryOf(request).range))));
    },
  }),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/stats/user/:user_name/daily-activity',
    summary: "A user's listen counts by weekday and hour over the range",
    openapi: {
      operationId: 'getUserDailyActivity',
      parameters: [userNameParameter, rangeParameter],
      answer: 'Listen counts by weekday and hour',
      noContent: true,
    },
    handler: async ({ request, reply, ctx }) => {
      const user = await userNamed(ctx, userNameOf(request));
      return orNoContent(reply, await dailyActivity(ctx.db, user, statsRangeFrom(firstQueryValue(queryOf(request).range))));
    },
  }),
];

/**
 * /1/stats/sitewide/…: the same lists and activity over every user's plays, read without a token.
 * They read the whole instance's rollups, so identical requests share one answer (heavyRead).
 */
export const sitewideStatsEndpoints: readonly AnyEndpoint[] = [
  ...(['artists', 'releases', 'recordings'] as Entity[]).map((entity) =>
    listenBrainzEndpoint({
      method: 'GET',
      path: `/1/stats/sitewide/${entity}`,
      summary: `The top ${entity} of every user over a range`,
      openapi: {
        operationId: `getSitewideTop${entity}`,
        parameters: [rangeParameter, ...pageParameters],
        answer: `The top ${entity}`,
        noContent: true,
        noUser: true,
      },
      handler: async ({ request, reply, ctx }) => {
        const range = statsRangeFrom(firstQueryValue(queryOf(request).range));
        const page = pageFrom(queryOf(request));
        const key = JSON.stringify(['lb-sitewide', entity, range, page.count, page.offset]);
        return orNoContent(reply, await heavyRead(ctx.db, key, () => entityStats(ctx.db, 'sitewide', entity, range, page)));
      },
    }),
  ),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/stats/sitewide/listening-activity',
    summary: "Every user's listen counts over the range's periods",
    openapi: { operationId: 'getSitewideListeningActivity', parameters: [rangeParameter], answer: 'Listen counts by period', noContent: true, noUser: true },
    handler: async ({ request, reply, ctx }) => {
      const range = statsRangeFrom(firstQueryValue(queryOf(request).range));
      const key = JSON.stringify(['lb-sitewide', 'listening-activity', range]);
      return orNoContent(reply, await heavyRead(ctx.db, key, () => listeningActivity(ctx.db, 'sitewide', range)));
    },
  }),
];

function booleanArgument(name: string, value: QueryValue): boolean {
  const text = firstQueryValue(value)?.trim().toLowerCase();
  if (!text) return false;
  if (text !== 'true' && text !== 'false') throw invalidRequest(`Invalid ${name} argument: ${text}`);
  return text === 'true';
}

/** Recording feedback (love, hate, clear) and a user's feedback list. */
export const feedbackEndpoints: readonly AnyEndpoint[] = [
  listenBrainzEndpoint({
    method: 'POST',
    path: '/1/feedback/recording-feedback',
    summary: 'Loves, hates or clears the feedback on a recording',
    credentials: USER_TOKEN,
    openapi: { operationId: 'submitRecordingFeedback', body: '{ recording_msid or recording_mbid, score: 1, -1 or 0 }', answer: '{ status: "ok" }' },
    handler: async ({ request, ctx, credentials }) => {
      await recordFeedback(ctx, credentials.userId, parseFeedback(bodyText(request)));
      return { status: 'ok' };
    },
  }),
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/feedback/user/:user_name/get-feedback',
    summary: "A user's recording feedback",
    openapi: {
      operationId: 'getUserFeedback',
      parameters: [
        userNameParameter,
        queryParameter('score', '1 (loves), -1 (hates), or 0 for both'),
        queryParameter('metadata', 'whether to add track metadata', 'boolean'),
        ...pageParameters,
      ],
      answer: 'The feedback, newest first',
    },
    handler: async ({ request, ctx }) => {
      const query = queryOf(request);
      const score = integerArgument('score', query.score);
      const metadata = booleanArgument('metadata', query.metadata);
      const page = pageFrom(query);
      const user = await userNamed(ctx, userNameOf(request));
      // As on ListenBrainz, score 0 (or none) lists loves and hates alike.
      if (score && score !== 1 && score !== -1) throw invalidRequest('Score can have a value of 1 or -1.');
      return userFeedback(ctx.db, user, { score: score ? (score as 1 | -1) : undefined, metadata, ...page });
    },
  }),
];

/** latest-import: read by anyone for a user, moved forward with the user's token. */
export const latestImportEndpoints: readonly AnyEndpoint[] = [
  listenBrainzEndpoint({
    method: 'GET',
    path: '/1/latest-import',
    summary: "When a user's latest import from a service ended",
    openapi: {
      operationId: 'getLatestImport',
      parameters: [queryParameter('user_name', "the user's handle", 'string'), queryParameter('service', 'lastfm (the default) or librefm', 'string')],
      answer: '{ musicbrainz_id, latest_import }',
    },
    handler: async ({ request, ctx }) => {
      const query = queryOf(request);
      const service = importService(firstQueryValue(query.service));
      const user = await userNamed(ctx, firstQueryValue(query.user_name) ?? '');
      return { musicbrainz_id: user.handle, latest_import: await latestImport(ctx.db, user.id, service) };
    },
  }),
  listenBrainzEndpoint({
    method: 'POST',
    path: '/1/latest-import',
    summary: "Moves the user's latest import time forward",
    credentials: USER_TOKEN,
    openapi: { operationId: 'updateLatestImport', body: '{ ts, service }', answer: '{ status: "ok" }' },
    handler: async ({ request, ctx, credentials }) => {
      const { ts, service } = parseLatestImport(bodyText(request));
      await updateLatestImport(ctx.db, credentials.userId, service, ts);
      return { status: 'ok' };
    },
  }),
];
