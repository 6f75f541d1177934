import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { markSignInRefused } from '../../core/auth/refused-sign-ins.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import type { AppContext } from '../../core/context.ts';
import { LibraryError } from '../../core/library/errors.ts';
import type { CredentialCheck, Endpoint, Protocol } from '../http/endpoint.ts';
import type { ClassifiedError } from '../http/error-path.ts';
import { registerEndpoints, setProtocolErrorPath } from '../http/register.ts';
import { ifNoneMatch } from '../http/file-headers.ts';
import { authenticateSubsonic } from './auth.ts';
import { failedDocument, isValidCallback, okDocument, render, type SubsonicFormat } from './format.ts';
import type { SubsonicBinary, SubsonicMethod, SubsonicParams, SubsonicPayload } from './method.ts';
import { PUBLIC_ANSWERS } from './methods/system.ts';
import { requestSubsonicParams } from './params.ts';
import { subsonicCode } from './error-codes.ts';

/** Form bodies carry parameters only (formPost); a long playlist edit stays far below this. */
const FORM_BODY_LIMIT = 256 * 1024;

const isBinary = (result: SubsonicPayload | SubsonicBinary): result is SubsonicBinary => result.kind === 'binary';

function formatOf(f: string | undefined, callback: string | undefined): SubsonicFormat {
  if (f === 'json') return 'json';
  // A jsonp request without a usable callback gets JSON rather than script that would not run.
  if (f === 'jsonp') return isValidCallback(callback) ? 'jsonp' : 'json';
  return 'xml';
}

/** A failure as Subsonic answers one: HTTP 200, `status: "failed"`, `error {code, message}`. */
function failureOf(error: ClassifiedError): SubsonicPayload {
  if (error.internal) return failedDocument(0, 'internal server error');
  if (error.cause instanceof LibraryError) return failedDocument(subsonicCode(error.cause), error.message);
  return failedDocument(0, error.message);
}

function send(reply: FastifyReply, params: SubsonicParams, document: SubsonicPayload) {
  const callback = params.get('callback');
  const { contentType, body } = render(document, formatOf(params.get('f'), callback), callback);
  return reply.status(200).type(contentType).send(body);
}

/** The OpenSubsonic API: every answer but bytes is HTTP 200 in the requested format, failures included. */
export const SUBSONIC: Protocol = {
  name: 'subsonic',
  renderError: (error, request, reply) => send(reply, requestSubsonicParams(request), failureOf(error)),
};

const methodNameOf = (request: FastifyRequest) => (request.params as { method: string }).method.replace(/\.view$/, '');

/** The caller; a wrong username or password (code 40) also counts against the account's sign-in budget. */
async function callerOf(ctx: AppContext, request: FastifyRequest, params: SubsonicParams): Promise<Viewer> {
  try {
    return await authenticateSubsonic(ctx, params);
  } catch (error) {
    if (error instanceof LibraryError && error.failure === 'WrongCredentials') markSignInRefused(request);
    throw error;
  }
}

/**
 * `u` with `p`, `t` and `s`, or `apiKey`, in the query or the form body, for every method but
 * the public answers; an unknown method is answered before anyone is asked who they are.
 */
function subsonicCredentials(names: ReadonlySet<string>): CredentialCheck<Viewer | null> {
  return {
    stage: 'body',
    description: 'u with p (an API key, or enc:<hex>), or t = md5(key + s) with s; or apiKey alone',
    check: async (request, ctx) => {
      const name = methodNameOf(request);
      if (PUBLIC_ANSWERS.has(name) || !names.has(name)) return null;
      return callerOf(ctx, request, requestSubsonicParams(request));
    },
  };
}

const queryParameter = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } });

/**
 * `/rest/<method>` and `/rest/<method>.view`, GET or POST with a form body: one route, and one
 * OpenAPI entry whose `method` path parameter lists the methods. An unknown method is a failure
 * with code 0 (generic), as the request names no data that could be "not found".
 */
function subsonicEndpoint(methods: readonly SubsonicMethod[]): Endpoint<Viewer | null> {
  const byName = new Map(methods.map((method) => [method.name, method]));
  const names = [...PUBLIC_ANSWERS.keys(), ...byName.keys()];
  const credentials = subsonicCredentials(new Set(byName.keys()));
  return {
    method: ['GET', 'POST'],
    path: '/rest/:method',
    host: 'api',
    protocol: SUBSONIC,
    summary: 'The OpenSubsonic API: the method the path names, with or without .view',
    credentials,
    openapi: {
      operationId: 'subsonicCall',
      tags: ['subsonic'],
      description: `Credentials: ${credentials.description}. Public methods (${[...PUBLIC_ANSWERS.keys()].join(', ')}) need none.`,
      security: [],
      parameters: [
        {
          name: 'method',
          in: 'path',
          required: true,
          description: 'the method, optionally followed by .view',
          schema: { type: 'string', enum: names.flatMap((name) => [name, `${name}.view`]) },
        },
        ...[
          ['u', "the user's handle"],
          ['p', 'an API key, or enc:<its hex>'],
          ['t', 'md5(key + s)'],
          ['s', 'the salt'],
          ['apiKey', 'an API key (OpenSubsonic), without u'],
          ['v', 'the protocol version'],
          ['c', "the client's name"],
          ['f', 'xml (the default), json or jsonp'],
          ['callback', 'the jsonp callback'],
        ].map(([name, description]) => queryParameter(name!, description!)),
      ],
      requestBody: {
        required: false,
        description: 'the same parameters as a form (formPost)',
        content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
      },
      responses: {
        '200': {
          description:
            'subsonic-response in the requested format, status ok or failed (with error code and message); bytes for stream, download and getCoverArt',
          content: {
            'application/xml': { schema: { type: 'string' } },
            'application/json': { schema: { type: 'object' } },
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          },
        },
        '206': { description: 'A range of the bytes (stream, download)' },
        '416': { description: 'A range the file cannot satisfy' },
      },
    },
    handler: async ({ request, reply, ctx, credentials: viewer }) => {
      const params = requestSubsonicParams(request);
      const name = methodNameOf(request);
      const publicAnswer = PUBLIC_ANSWERS.get(name);
      if (publicAnswer) return send(reply, params, okDocument(publicAnswer));
      const method = byName.get(name);
      if (!method) return send(reply, params, failedDocument(0, `unknown method ${name}`));
      const result = await method.handler({
        ctx,
        viewer: viewer!,
        params,
        client: params.get('c') ?? '',
        range: request.headers.range,
        ifNoneMatch: ifNoneMatch(request.headers['if-none-match']),
      });
      if (isBinary(result)) return reply.status(result.status).type(result.contentType).headers(result.headers).send(result.body);
      return send(reply, params, okDocument(result));
    },
  };
}

export function registerSubsonicRoutes(app: FastifyInstance, ctx: AppContext, methods: readonly SubsonicMethod[]): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    setProtocolErrorPath(scope, SUBSONIC);
    registerEndpoints(scope, ctx, [subsonicEndpoint(methods)]);
  });
}
