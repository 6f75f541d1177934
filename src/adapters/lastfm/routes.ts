import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKey, sharedSecretFor } from '../../core/auth/index.ts';
import type { AppContext } from '../../core/context.ts';
import type { CredentialCheck, Endpoint, Protocol } from '../http/endpoint.ts';
import type { ClassifiedError } from '../http/error-path.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { registerAuthorizationPage } from './auth-page.ts';
import { invalidApiKey, invalidMethod, invalidParameters, invalidSessionKey, invalidSignature, LastfmError, temporarilyUnavailable } from './errors.ts';
import type { LastfmMethod, MethodCall, MethodAuth } from './method.ts';
import { findMethod, METHODS } from './methods.ts';
import { acceptFormBodies, requestParams, type Params } from './params.ts';
import { sendError, sendResult, type ResponseFormat } from './response.ts';
import { findLastfmSession } from './sessions.ts';
import { hasValidSignature } from './signature.ts';

function formatOf(params: Params): ResponseFormat {
  return params.get('format') === 'json' ? 'json' : 'xml';
}

/** Errors below the methods (body parsing, limits, unexpected failures) in Last.fm's shape. */
function asLastfmError(error: ClassifiedError): LastfmError {
  if (error.internal) return temporarilyUnavailable();
  if (error.cause instanceof LastfmError) return error.cause;
  return invalidParameters(error.message);
}

/** Last.fm's web-service API: `<lfm status="failed"><error code>` or `{error, message}` with Last.fm's codes. */
export const LASTFM: Protocol = {
  name: 'lastfm',
  renderError: (error, request, reply) => sendError(reply, formatOf(requestParams(request)), asLastfmError(error)),
};

/** A call's method and the credentials it was checked with: what its handler is given beside the parameters. */
interface CheckedCall {
  method: LastfmMethod;
  call: Omit<MethodCall<MethodAuth>, 'ctx' | 'params'>;
}

/**
 * Checks, in Last.fm's order: method, HTTP verb, API key, signature, session key. Unsigned reads
 * ('apiKey') stop after the API key unless they name a session. The key's request rate (error
 * 29) is counted before, with every other budget (ops/rate-limits.ts).
 */
async function checkCall(request: FastifyRequest, ctx: AppContext): Promise<CheckedCall> {
  const params = requestParams(request);
  const method = findMethod(params.get('method'));
  if (method.postOnly && request.method !== 'POST') throw invalidMethod(`${method.name} must be called with POST`);
  const owner = await authenticateApiKey(ctx.db, params.get('api_key') ?? '');
  if (!owner) throw invalidApiKey();
  const sessionKey = params.get('sk');
  if (method.auth === 'apiKey' && !sessionKey) return { method, call: { apiKeyId: owner.apiKeyId, session: null } };
  if (!hasValidSignature(params, sharedSecretFor(ctx.keys.apiKeySharedSecret, owner.apiKeyId))) throw invalidSignature();
  if (method.auth === 'signed') return { method, call: { apiKeyId: owner.apiKeyId, session: null } };
  if (!sessionKey) throw invalidParameters('sk (session key) is required');
  const session = await findLastfmSession(ctx.db, sessionKey, owner.apiKeyId);
  if (!session) throw invalidSessionKey();
  return { method, call: { apiKeyId: owner.apiKeyId, session } };
}

const LASTFM_CREDENTIALS: CredentialCheck<CheckedCall> = {
  stage: 'body',
  description: 'api_key (an Earshot API key); signed methods add api_sig, session methods sk',
  check: checkCall,
};

const AUTH_WORDS: Record<MethodAuth, string> = { apiKey: 'api_key', signed: 'api_key and api_sig', session: 'api_key, api_sig and sk' };

/**
 * Every method is one URL, told apart by its `method` parameter: one route, and one OpenAPI
 * entry whose `method` parameter lists the names, with each method's credentials and verb under
 * `x-earshot-methods` (OpenAPI keys operations by path and verb, never by a parameter's value).
 */
function lastfmEndpoint(methods: readonly LastfmMethod[]): Endpoint<CheckedCall> {
  const failed = { description: '<lfm status="failed"><error code="N">, or { error: N, message } with format=json' };
  return {
    method: ['GET', 'POST'],
    path: '/2.0/',
    host: 'scrobbler',
    protocol: LASTFM,
    summary: "Last.fm's web-service API (2.0): the method named by `method`",
    credentials: LASTFM_CREDENTIALS,
    openapi: {
      operationId: 'lastfmCall',
      tags: ['lastfm'],
      description: `Credentials: ${LASTFM_CREDENTIALS.description}. Writes only by POST, with a form body.`,
      parameters: [
        {
          name: 'method',
          in: 'query',
          required: true,
          description: 'the method, in any letter case',
          schema: { type: 'string', enum: methods.map((method) => method.name) },
        },
        { name: 'api_key', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'api_sig', in: 'query', required: false, description: 'md5 of the sorted parameters and the shared secret', schema: { type: 'string' } },
        { name: 'sk', in: 'query', required: false, description: 'the session key', schema: { type: 'string' } },
        { name: 'format', in: 'query', required: false, schema: { enum: ['xml', 'json'] } },
      ],
      'x-earshot-methods': methods.map((method) => ({ name: method.name, credentials: AUTH_WORDS[method.auth], postOnly: method.postOnly })),
      responses: {
        '200': {
          description: '<lfm status="ok">…</lfm>, or its JSON with format=json',
          content: { 'text/xml': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
        },
        '400': failed,
        '403': failed,
        '429': failed,
        '503': failed,
      },
    },
    handler: async ({ request, reply, ctx, credentials: { method, call } }) => {
      const params = requestParams(request);
      return sendResult(reply, formatOf(params), await method.handler({ ctx, params, ...call } as never));
    },
  };
}

/** Last.fm's web-service API (2.0) under /2.0/, and its authorization page under /api/auth/. */
export function registerLastfm(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      acceptFormBodies(scope);
      setProtocolErrorPath(scope, LASTFM);
      registerEndpoints(scope, ctx, [lastfmEndpoint(METHODS)], '/2.0');
    },
    { prefix: '/2.0' },
  );
  registerAuthorizationPage(app, ctx);
}
