import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { markSignInRefused } from '../../core/auth/refused-sign-ins.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import type { AppContext } from '../../core/context.ts';
import { clientDataProblem } from '../../toolkit/db/index.ts';
import { LibraryError } from '../../core/library/errors.ts';
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
function failureOf(error: unknown, request: FastifyRequest): SubsonicPayload {
  if (error instanceof LibraryError) return failedDocument(subsonicCode(error), error.message);
  const problem = clientDataProblem(error);
  if (problem) return failedDocument(0, problem);
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status < 500) return failedDocument(0, (error as Error).message);
  request.log.error({ err: error }, 'subsonic request failed');
  return failedDocument(0, 'internal server error');
}

/** The caller; a wrong username or password (code 40) also counts against the account's sign-in budget. */
async function callerOf(ctx: AppContext, request: FastifyRequest, params: SubsonicParams): Promise<Viewer> {
  try {
    return await authenticateSubsonic(ctx, params);
  } catch (error) {
    if (error instanceof LibraryError && error.failure === 'WrongCredentials') markSignInRefused(request);
    throw error;
  }
}

function send(reply: FastifyReply, params: SubsonicParams, document: SubsonicPayload) {
  const callback = params.get('callback');
  const { contentType, body } = render(document, formatOf(params.get('f'), callback), callback);
  return reply.status(200).type(contentType).send(body);
}

/**
 * `/rest/<method>` and `/rest/<method>.view`, GET or POST with a form body. Every answer but
 * bytes is HTTP 200 in the requested format, failures included; an unknown method is a failure
 * with code 0 (generic), as the request names no data that could be "not found".
 */
export function registerSubsonicRoutes(app: FastifyInstance, ctx: AppContext, methods: readonly SubsonicMethod[]): void {
  const byName = new Map(methods.map((method) => [method.name, method]));
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error, request, reply) => send(reply, requestSubsonicParams(request), failureOf(error, request)));
    const handler = async (request: FastifyRequest<{ Params: { method: string } }>, reply: FastifyReply) => {
      const params = requestSubsonicParams(request);
      const name = request.params.method.replace(/\.view$/, '');
      const publicAnswer = PUBLIC_ANSWERS.get(name);
      if (publicAnswer) return send(reply, params, okDocument(publicAnswer));
      const method = byName.get(name);
      if (!method) return send(reply, params, failedDocument(0, `unknown method ${name}`));
      const viewer = await callerOf(ctx, request, params);
      const result = await method.handler({ ctx, viewer, params, client: params.get('c') ?? '', range: request.headers.range });
      if (isBinary(result)) return reply.status(result.status).type(result.contentType).headers(result.headers).send(result.body);
      return send(reply, params, okDocument(result));
    };
    scope.get('/rest/:method', handler);
    scope.post('/rest/:method', handler);
  });
}
