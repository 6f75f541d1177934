import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { ingestListens, updateNowPlaying } from '../../core/scrobbling/ingest.ts';
import { Refusal } from '../../toolkit/errors.ts';
import type { AnyEndpoint, CredentialCheck, Endpoint, Protocol } from '../http/endpoint.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { acceptFormBodies, requestParams } from '../lastfm/index.ts';
import { likeSong } from '../../core/catalog/index.ts';
import { forwardLove } from '../../core/relay/forward.ts';
import { markSignInRefused } from '../../core/auth/refused-sign-ins.ts';
import { handshake } from './handshake.ts';
import { sessionUser } from './sessions.ts';
import { parseNowPlaying, parseSubmissions } from './submissions.ts';

const NOW_PLAYING_PATH = '/np_1.2';
const SUBMISSION_PATH = '/protocol_1.2';

/** Routes GET / to the handshake only when `hs=true`; other hits keep the host's informational page. */
const HANDSHAKE_CONSTRAINT = 'audioscrobblerHandshake';

function isHandshake(request: { url?: string | undefined }): string | undefined {
  const url = request.url ?? '';
  return url.includes('?') && new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('hs') === 'true' ? 'true' : undefined;
}

function sendLines(reply: FastifyReply, ...lines: string[]): FastifyReply {
  return reply.type('text/plain; charset=utf-8').send(lines.map((line) => `${line}\n`).join(''));
}

/** An unknown or expired session: Audioscrobbler tells it in the body, with 200. */
class BadSession extends Refusal {
  readonly status = 200;
}

/** Every failure is a FAILED line, as clients expect; only the status tells a client error from ours. */
export const AUDIOSCROBBLER: Protocol = {
  name: 'audioscrobbler',
  renderError: (error, _request, reply) => {
    if (error.internal) return sendLines(reply.status(503), 'FAILED temporary server error, try again later');
    if (error.cause instanceof BadSession) return sendLines(reply, 'BADSESSION');
    // A rate limit keeps its 429 (with Retry-After); every other client error is a 400.
    return sendLines(reply.status(error.status === 429 ? 429 : 400), `FAILED ${error.message}`);
  },
};

/** The user whose session the form names (`s`, the id the handshake gave). */
const SESSION: CredentialCheck<string> = {
  stage: 'body',
  description: 'the session id the handshake gave, as the form parameter s',
  check: async (request, ctx) => {
    const userId = await sessionUser(ctx.db, requestParams(request).get('s') ?? '');
    if (!userId) throw new BadSession('BADSESSION');
    return userId;
  },
};

const TEXT_ANSWER = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });
const FAILURES = {
  '400': TEXT_ANSWER('FAILED <reason>'),
  '429': TEXT_ANSWER('FAILED <reason>: too many requests; see Retry-After'),
  '503': TEXT_ANSWER('FAILED temporary server error, try again later'),
};
const formParameters = (description: string) => ({
  required: true,
  description,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
});
const queryParameter = (name: string, description: string) => ({ name, in: 'query', required: true, description, schema: { type: 'string' } });

function audioscrobblerEndpoint<C>(declaration: Omit<Endpoint<C>, 'host' | 'protocol'>): Endpoint<C> {
  return { ...declaration, host: 'scrobbler', protocol: AUDIOSCROBBLER, openapi: { tags: ['audioscrobbler'], ...declaration.openapi } };
}

const audioscrobblerEndpoints: readonly AnyEndpoint[] = [
  // The handshake signs in with the user's handle and an API key's token: it needs no session itself.
  audioscrobblerEndpoint({
    method: 'GET',
    path: '/',
    summary: 'The Audioscrobbler 1.2 handshake (hs=true): a session id and the URLs to submit to',
    route: { constraints: { [HANDSHAKE_CONSTRAINT]: 'true' } },
    openapi: {
      operationId: 'audioscrobblerHandshake',
      security: [],
      parameters: [
        queryParameter('hs', 'true'),
        queryParameter('p', 'the protocol version, 1.2 or 1.2.1'),
        queryParameter('c', "the client's id"),
        queryParameter('v', "the client's version"),
        queryParameter('u', "the user's handle"),
        queryParameter('t', 'the UNIX time'),
        queryParameter('a', 'md5(md5(API key) + t)'),
      ],
      responses: { '200': TEXT_ANSWER('OK, the session id, the now-playing URL and the submission URL, a line each; or BADAUTH or BADTIME'), ...FAILURES },
    },
    handler: async ({ request, reply, ctx }) => {
      const result = await handshake(ctx, requestParams(request));
      if (result.status === 'BADAUTH') markSignInRefused(request);
      if (result.status !== 'OK') return sendLines(reply, result.status);
      const base = ctx.config.scrobblerPublicUrl;
      return sendLines(reply, 'OK', result.sessionId, `${base}${NOW_PLAYING_PATH}`, `${base}${SUBMISSION_PATH}`);
    },
  }),
  audioscrobblerEndpoint({
    method: 'POST',
    path: NOW_PLAYING_PATH,
    summary: 'The track playing now',
    credentials: SESSION,
    openapi: {
      operationId: 'audioscrobblerNowPlaying',
      description: `Credentials: ${SESSION.description}.`,
      requestBody: formParameters('s, a, t, b, l, n, m'),
      responses: { '200': TEXT_ANSWER('OK, or BADSESSION'), ...FAILURES },
    },
    handler: async ({ request, reply, ctx, credentials }) => {
      // A track the catalog refuses is still a successful notification for the client.
      await updateNowPlaying(ctx, credentials, parseNowPlaying(requestParams(request)));
      return sendLines(reply, 'OK');
    },
  }),
  audioscrobblerEndpoint({
    method: 'POST',
    path: SUBMISSION_PATH,
    summary: 'Submits plays (up to 50)',
    credentials: SESSION,
    openapi: {
      operationId: 'audioscrobblerSubmit',
      description: `Credentials: ${SESSION.description}.`,
      requestBody: formParameters('s, and a[i], t[i], i[i], o[i], r[i], l[i], b[i], n[i], m[i] for each play i'),
      responses: { '200': TEXT_ANSWER('OK, or BADSESSION'), ...FAILURES },
    },
    handler: async ({ request, reply, ctx, credentials: userId }) => {
      const submissions = parseSubmissions(requestParams(request));
      const listened = submissions.filter((submission) => !submission.skipped);
      const outcomes = await ingestListens(
        ctx,
        userId,
        listened.map((submission) => submission.listen),
        'audioscrobbler',
      );
      const loves = [];
      for (const [i, outcome] of outcomes.entries()) {
        if (listened[i]!.loved && outcome.status !== 'ignored') loves.push(await likeSong(ctx.db, userId, outcome.trackId));
      }
      forwardLove(ctx, userId, loves);
      return sendLines(reply, 'OK');
    },
  }),
];

/**
 * Audioscrobbler 1.2 / 1.2.1: the handshake at the host root (`/?hs=true&…`), now-playing at
 * /np_1.2 and submissions at /protocol_1.2, the URLs the handshake hands out.
 */
export function registerAudioscrobbler(app: FastifyInstance, ctx: AppContext): void {
  app.addConstraintStrategy({
    name: HANDSHAKE_CONSTRAINT,
    storage() {
      const handlers = new Map<string, unknown>();
      return { get: (value: string) => (handlers.get(value) ?? null) as never, set: (value: string, store: unknown) => void handlers.set(value, store) };
    },
    deriveConstraint: isHandshake,
    mustMatchWhenDerived: false,
  });
  app.register(async (scope) => {
    acceptFormBodies(scope);
    setProtocolErrorPath(scope, AUDIOSCROBBLER);
    registerEndpoints(scope, ctx, audioscrobblerEndpoints);
  });
}
