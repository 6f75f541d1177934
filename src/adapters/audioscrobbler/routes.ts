import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { ingestListens, updateNowPlaying } from '../../core/scrobbling/ingest.ts';
import { clientDataProblem } from '../../toolkit/db/index.ts';
import { acceptFormBodies, InvalidParameter, requestParams } from '../lastfm/index.ts';
import { likeSong } from '../../core/catalog/index.ts';
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

/** Every failure is a FAILED line, as clients expect; only the status tells a client error from ours. */
function sendFailure(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = clientDataProblem(error);
  if (problem) return sendLines(reply.status(400), `FAILED ${problem}`);
  const status = (error as FastifyError).statusCode ?? 500;
  if (error instanceof InvalidParameter || status < 500) {
    // A rate limit keeps its 429 (with Retry-After); every other client error is a 400.
    return sendLines(reply.status(status === 429 ? 429 : 400), `FAILED ${error.message}`);
  }
  request.log.error({ err: error }, 'Audioscrobbler request failed');
  return sendLines(reply.status(503), 'FAILED temporary server error, try again later');
}

/** The user whose session the request names, or null after answering BADSESSION. */
async function sessionOf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
  const userId = await sessionUser(ctx.db, requestParams(request).get('s') ?? '');
  if (!userId) sendLines(reply, 'BADSESSION');
  return userId;
}

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
    scope.setErrorHandler(sendFailure);
    scope.get('/', { constraints: { [HANDSHAKE_CONSTRAINT]: 'true' } }, async (request, reply) => {
      const result = await handshake(ctx, requestParams(request));
      if (result.status === 'BADAUTH') markSignInRefused(request);
      if (result.status !== 'OK') return sendLines(reply, result.status);
      const base = ctx.config.scrobblerPublicUrl;
      return sendLines(reply, 'OK', result.sessionId, `${base}${NOW_PLAYING_PATH}`, `${base}${SUBMISSION_PATH}`);
    });
    scope.post(NOW_PLAYING_PATH, async (request, reply) => {
      const userId = await sessionOf(ctx, request, reply);
      if (!userId) return reply;
      // A track the catalog refuses is still a successful notification for the client.
      await updateNowPlaying(ctx, userId, parseNowPlaying(requestParams(request)));
      return sendLines(reply, 'OK');
    });
    scope.post(SUBMISSION_PATH, async (request, reply) => {
      const userId = await sessionOf(ctx, request, reply);
      if (!userId) return reply;
      const submissions = parseSubmissions(requestParams(request));
      const listened = submissions.filter((submission) => !submission.skipped);
      const outcomes = await ingestListens(ctx, userId, listened.map((submission) => submission.listen), 'audioscrobbler');
      for (const [i, outcome] of outcomes.entries()) {
        if (listened[i]!.loved && outcome.status !== 'ignored') await likeSong(ctx.db, userId, outcome.trackId);
      }
      return sendLines(reply, 'OK');
    });
  });
}
