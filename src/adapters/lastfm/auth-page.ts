import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint } from '../http/endpoint.ts';
import { registerEndpoints } from '../http/register.ts';
import { PLAIN_HTTP } from '../http/xrpc-protocol.ts';
import { authenticateApiKey } from '../../core/auth/index.ts';
import { verifyLogin } from '../../core/auth/users.ts';
import type { AppContext } from '../../core/context.ts';
import { acceptFormBodies, requestParams } from './params.ts';
import { escapeXml as escapeHtml } from './response.ts';
import { approveToken, issueToken, tokenState } from './tokens.ts';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The token rides in the URL: keep it out of caches and Referer headers, and the form out of frames.
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · Earshot</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.4rem 0}input,button{padding:.5rem;box-sizing:border-box}.error{color:#b00}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return reply.status(status).headers(PAGE_HEADERS).send(html);
}

interface PendingApproval {
  apiKeyId: string;
  application: string;
  apiKey: string;
  token: string;
  /** The web flow's callback: the browser goes back there with `token` once approved. */
  callback: string | undefined;
}

/** A web-flow callback the browser may be sent to: an absolute http(s) URL. */
function callbackUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The request's application and token, or the page explaining why there is nothing to approve. */
async function pendingApproval(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<PendingApproval | null> {
  const params = requestParams(request);
  const apiKey = params.get('api_key') ?? '';
  const callback = callbackUrl(params.get('cb'));
  const owner = await authenticateApiKey(ctx.db, apiKey);
  if (!owner) {
    await sendPage(reply, 400, 'Unknown application', '<p>This link does not name an API key known to this server.</p>');
    return null;
  }
  if (params.get('cb') !== undefined && !callback) {
    await sendPage(reply, 400, 'Nothing to approve', '<p>This link names a callback that is not an http(s) address.</p>');
    return null;
  }
  // The web flow (api_key and cb, no token): the page makes the token auth.getSession will trade.
  const token = params.get('token') ?? (callback ? await issueToken(ctx.db, owner.apiKeyId) : '');
  const state = await tokenState(ctx.db, token, owner.apiKeyId);
  if (state !== 'pending') {
    const explanation = {
      unknown: 'This authorization link is not valid.',
      expired: 'This authorization link has expired. Start again from your application.',
      approved: 'This application is already approved. You can close this window.',
    }[state];
    await sendPage(reply, state === 'approved' ? 200 : 400, 'Nothing to approve', `<p>${explanation}</p>`);
    return null;
  }
  const key = await ctx.db.selectFrom('api_keys').select('name').where('id', '=', owner.apiKeyId).executeTakeFirstOrThrow();
  return { apiKeyId: owner.apiKeyId, application: key.name, apiKey, token, callback };
}

function signInForm(approval: PendingApproval, error?: string): string {
  return `<p>Sign in to let <strong>${escapeHtml(approval.application)}</strong> record your listens with Earshot.</p>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="">
<input type="hidden" name="api_key" value="${escapeHtml(approval.apiKey)}">
<input type="hidden" name="token" value="${escapeHtml(approval.token)}">
${approval.callback ? `<input type="hidden" name="cb" value="${escapeHtml(approval.callback)}">` : ''}
<label>Handle or DID <input name="identifier" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Allow access</button>
</form>`;
}

const PAGE_PARAMETERS = [
  { name: 'api_key', in: 'query', required: true, description: "the application's API key", schema: { type: 'string' } },
  {
    name: 'token',
    in: 'query',
    required: false,
    description: 'the token from auth.getToken (desktop flow); without it, cb is required',
    schema: { type: 'string' },
  },
  { name: 'cb', in: 'query', required: false, description: 'web flow: where the browser is sent back with ?token= once approved', schema: { type: 'string' } },
];
const PAGE = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });

function pageEndpoint(method: 'GET' | 'POST', summary: string, handler: Endpoint['handler'], extra: Record<string, unknown>): Endpoint {
  return {
    method,
    path: '/api/auth/',
    host: 'scrobbler',
    protocol: PLAIN_HTTP,
    summary,
    openapi: {
      operationId: `lastfmAuthorizationPage${method === 'GET' ? '' : 'SignIn'}`,
      tags: ['lastfm'],
      security: [],
      parameters: PAGE_PARAMETERS,
      ...extra,
    },
    handler,
  };
}

/**
 * Last.fm's authorization page: the desktop flow (`/api/auth/?api_key=…&token=…`) and the web
 * flow (`/api/auth/?api_key=…&cb=…`, where the page makes the token and, once approved, sends the
 * browser back to the callback with `token`). The user signs in with handle and password, which
 * approves the token for auth.getSession.
 */
const authorizationPageEndpoints: readonly Endpoint[] = [
  pageEndpoint(
    'GET',
    "Last.fm's desktop authorization page: a sign-in form that approves the token",
    async ({ request, reply, ctx }) => {
      const approval = await pendingApproval(ctx, request, reply);
      return approval ? sendPage(reply, 200, 'Allow access', signInForm(approval)) : reply;
    },
    { responses: { '200': PAGE('The sign-in form, or a page saying there is nothing to approve'), '400': PAGE('An unknown application or link') } },
  ),
  pageEndpoint(
    'POST',
    'Signs in on the authorization page, approving the token',
    async ({ request, reply, ctx }) => {
      const approval = await pendingApproval(ctx, request, reply);
      if (!approval) return reply;
      const params = requestParams(request);
      const user = await verifyLogin(ctx.db, params.get('identifier') ?? '', params.get('password') ?? '');
      if (!user) return sendPage(reply, 401, 'Allow access', signInForm(approval, 'Wrong handle or password.'));
      if (!(await approveToken(ctx.db, approval.token, approval.apiKeyId, user.id))) {
        return sendPage(reply, 400, 'Nothing to approve', '<p>This authorization link is no longer valid.</p>');
      }
      if (approval.callback) {
        const back = new URL(approval.callback);
        back.searchParams.set('token', approval.token);
        return reply.status(302).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).redirect(back.toString());
      }
      return sendPage(
        reply,
        200,
        'Access allowed',
        `<p><strong>${escapeHtml(approval.application)}</strong> can now scrobble as <strong>${escapeHtml(user.handle)}</strong>. You can close this window and return to the application.</p>`,
      );
    },
    {
      requestBody: {
        required: true,
        description: 'api_key, token, identifier (handle or DID) and password',
        content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
      },
      responses: {
        '200': PAGE('Access allowed'),
        '302': { description: 'Web flow: access allowed, back to the callback with token' },
        '400': PAGE('Nothing to approve'),
        '401': PAGE('Wrong handle or password'),
      },
    },
  ),
];

export function registerAuthorizationPage(app: FastifyInstance, ctx: AppContext): void {
  app.register(
    async (scope) => {
      acceptFormBodies(scope);
      registerEndpoints(scope, ctx, authorizationPageEndpoints, '/api/auth');
    },
    { prefix: '/api/auth' },
  );
}
