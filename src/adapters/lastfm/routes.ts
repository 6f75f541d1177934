import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateApiKey, sharedSecretFor } from '../../core/auth/index.ts';
import type { AppContext } from '../../core/context.ts';
import { registerAuthorizationPage } from './auth-page.ts';
import {
  invalidApiKey,
  invalidMethod,
  invalidParameters,
  invalidSessionKey,
  invalidSignature,
  LastfmError,
  temporarilyUnavailable,
} from './errors.ts';
import { findMethod } from './methods.ts';
import { clientDataProblem } from '../../toolkit/db/index.ts';
import { acceptFormBodies, InvalidParameter, requestParams, type Params } from './params.ts';
import { sendError, sendResult, type Element, type ResponseFormat } from './response.ts';
import { findLastfmSession } from './sessions.ts';
import { hasValidSignature } from './signature.ts';

function formatOf(params: Params): ResponseFormat {
  return params.get('format') === 'json' ? 'json' : 'xml';
}

/**
 * Checks, in Last.fm's order: method, HTTP verb, API key, signature, session key; then runs the method.
 * Unsigned reads ('apiKey') stop after the API key unless they name a session.
 * The key's request rate (error 29) is counted before, with every other budget (ops/rate-limits.ts).
 */
async function dispatch(ctx: AppContext, request: FastifyRequest, params: Params): Promise<Element | null> {
  const method = findMethod(params.get('method'));
  if (method.postOnly && request.method !== 'POST') throw invalidMethod(`${method.name} must be called with POST`);
  const owner = await authenticateApiKey(ctx.db, params.get('api_key') ?? '');
  if (!owner) throw invalidApiKey();
  const sessionKey = params.get('sk');
  if (method.auth === 'apiKey' && !sessionKey) return method.handler({ ctx, params, apiKeyId: owner.apiKeyId, session: null });
  if (!hasValidSignature(params, sharedSecretFor(ctx.keys.apiKeySharedSecret, owner.apiKeyId))) throw invalidSignature();
  if (method.auth === 'signed') return method.handler({ ctx, params, apiKeyId: owner.apiKeyId, session: null });
  if (!sessionKey) throw invalidParameters('sk (session key) is required');
  const session = await findLastfmSession(ctx.db, sessionKey, owner.apiKeyId);
  if (!session) throw invalidSessionKey();
  return method.handler({ ctx, params, apiKeyId: owner.apiKeyId, session });
}

/** Errors below the methods (body parsing, limits, unexpected failures) in Last.fm's shape. */
function asLastfmError(error: FastifyError | Error, request: FastifyRequest): LastfmError {
  if (error instanceof LastfmError) return error;
  if (error instanceof InvalidParameter) return invalidParameters(error.message);
  const problem = clientDataProblem(error);
  if (problem) return invalidParameters(problem);
  const status = (error as FastifyError).statusCode ?? 500;
  if (status < 500) return invalidParameters(error.message);
  request.log.error({ err: error }, 'Last.fm API request failed');
  return temporarilyUnavailable();
}

/** Last.fm's web-service API (2.0) under /2.0/, and its authorization page under /api/auth/. */
export function registerLastfm(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      acceptFormBodies(scope);
      scope.setErrorHandler((error: FastifyError | Error, request, reply: FastifyReply) =>
        sendError(reply, formatOf(requestParams(request)), asLastfmError(error, request)),
      );
      scope.route({
        method: ['GET', 'POST'],
        url: '/',
        handler: async (request, reply) => {
          const params = requestParams(request);
          return sendResult(reply, formatOf(params), await dispatch(ctx, request, params));
        },
      });
    },
    { prefix: '/2.0' },
  );
  registerAuthorizationPage(app, ctx);
}
