/**
 * The browser side of connecting an account: `GET /providers/<name>/connect` sends a signed-in
 * user to the provider (a client that cannot follow a redirect with its Bearer token asks with
 * POST and gets the URL), and the provider sends them back to `/providers/<name>/callback`. Who
 * may finish it there is bound at the start (connect.ts, Finisher): the starting browser by a
 * cookie, or the starting client by its credentials at `/providers/<name>/complete`.
 */
import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../../toolkit/errors.ts';
import { defineRoute } from '../../adapters/http/route.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import type { FileHostName } from '../filehost/hosts.ts';
import { startMirror } from '../filehost/sync.ts';
import { beginConnect, bindingCookie, bindingCookieName, completeConnect, ConnectRefused, type Connected, type Finisher } from './connect.ts';
import { asXrpcProviderCall } from './errors.ts';

const ProviderParam = Type.Object({ provider: Type.Union(PROVIDER_NAMES.map((name) => Type.Literal(name)), { description: 'filehostA, filehostB or musicstream' }) });
const ConnectQuery = Type.Object({
  folder: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'file hosts: the folder to mirror into the library (default /Music)' })),
});
const CONNECT_ERRORS = ['InvalidRequest', 'ProviderNotConfigured'] as const;

/** Runs a connect step, answering a refusal as 400 and a provider failure in its own mapping. */
async function connectStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await asXrpcProviderCall(step);
  } catch (error) {
    throw error instanceof ConnectRefused ? invalidRequest(error.message) : error;
  }
}

const begin = (ctx: AppContext, userId: string, provider: ProviderName, folder: string | undefined, finisher: Finisher) =>
  connectStep(() => beginConnect(ctx, userId, provider, { folder, finisher }));

const connectRedirect = defineRoute({
  method: 'GET',
  path: '/providers/:provider/connect',
  summary:
    "Connect the caller's account at a provider: redirects to the provider's consent page, which comes back to the callback. A cookie binds the authorization to this browser: only its callback is accepted",
  auth: 'account',
  pathParams: ProviderParam,
  query: ConnectQuery,
  success: { status: 302, schema: null },
  errors: CONNECT_ERRORS,
  async handler({ pathParams, query, viewer, ctx, setCookie }) {
    const provider = pathParams.provider as ProviderName;
    const { url, nonce } = await begin(ctx, viewer.userId, provider, query.folder, 'browser');
    setCookie(bindingCookie(ctx, provider, nonce));
    return url;
  },
});

const connectUrl = defineRoute({
  method: 'POST',
  path: '/providers/:provider/connect',
  summary:
    "The same as GET, for clients that open the consent page themselves: answers its URL instead of redirecting. By default the answer sets the same cookie, so the browser it lands in (the web app's) must be the one that follows the URL; with finish=client the caller finishes at /providers/<name>/complete instead",
  auth: 'account',
  pathParams: ProviderParam,
  query: Type.Object({
    ...ConnectQuery.properties,
    finish: Type.Optional(
      Type.Union([Type.Literal('browser'), Type.Literal('client')], {
        description: "browser (default): this answer's cookie binds the authorization to the browser that receives it; client: the URL may be opened in any browser, and the caller posts the callback's address to /providers/<name>/complete",
      }),
    ),
  }),
  success: { status: 200, schema: Type.Object({ url: Type.String(), expiresAt: DateTime({ description: 'consent must be given before this' }) }) },
  errors: CONNECT_ERRORS,
  async handler({ pathParams, query, viewer, ctx, setCookie }) {
    const provider = pathParams.provider as ProviderName;
    const finisher = query.finish ?? 'browser';
    const { url, expiresAt, nonce } = await begin(ctx, viewer.userId, provider, query.folder, finisher);
    if (finisher === 'browser') setCookie(bindingCookie(ctx, provider, nonce));
    return { url, expiresAt: isoDateTime(expiresAt) };
  },
});

const ConnectedAnswer = Type.Object({
  provider: Type.String(),
  account: Type.Object({ id: Type.String(), name: Type.String() }),
  folder: Type.Union([Type.String(), Type.Null()], { description: 'the folder a file host mirrors; null for the streaming service' }),
  message: Type.String(),
});

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 1024 })),
});
const CALLBACK_ERRORS = ['InvalidRequest', 'ProviderNotConfigured', 'ProviderUnavailable', 'ProviderRefused'] as const;

/** A connected account's answer, its file host folder's first sync started. */
async function connectedAnswer(ctx: AppContext, connected: Connected) {
  if (connected.folder !== null) await startMirror(ctx, connected.userId, connected.provider as FileHostName, connected.folder);
  const what = connected.folder === null ? '' : `; ${connected.folder} is being added to your library`;
  return {
    provider: connected.provider,
    account: connected.account,
    folder: connected.folder,
    message: `Connected ${connected.provider} as ${connected.account.name}${what}. You can close this page.`,
  };
}

const callback = defineRoute({
  method: 'GET',
  path: '/providers/:provider/callback',
  summary:
    "Where the provider sends the user's browser back: the authorization is checked, the code exchanged and the account connected. For an authorization a client finishes (finish=client), nothing is connected here: the page says to give its address to that client",
  auth: 'none',
  pathParams: ProviderParam,
  query: CallbackQuery,
  success: { status: 200, schema: Type.Union([ConnectedAnswer, Type.Object({ message: Type.String() })]) },
  errors: CALLBACK_ERRORS,
  async handler({ pathParams, query, ctx, cookies, setCookie }) {
    const provider = pathParams.provider as ProviderName;
    const cookie = cookies[bindingCookieName(provider)];
    // The binding cookie has done its work (or was not this authorization's): it goes either way.
    if (cookie !== undefined) setCookie(bindingCookie(ctx, provider, '', 0));
    const connected = await connectStep(() => completeConnect(ctx, provider, query, { finisher: 'browser', cookie }));
    if (connected === 'awaiting-client') {
      return {
        message: `Nothing is connected yet: if you ran the command that asked you to open the ${provider} page, paste this page's address into it to finish. Give the address to no one else: it would let them connect your ${provider} account to their Earshot account.`,
      };
    }
    return connectedAnswer(ctx, connected);
  },
});

const complete = defineRoute({
  method: 'POST',
  path: '/providers/:provider/complete',
  summary:
    "Finishes an authorization started with finish=client: the caller (the same account) posts the query of the callback address the provider sent the browser to, and the account is connected",
  auth: 'account',
  pathParams: ProviderParam,
  body: CallbackQuery,
  success: { status: 200, schema: ConnectedAnswer },
  errors: CALLBACK_ERRORS,
  async handler({ pathParams, body, viewer, ctx }) {
    const provider = pathParams.provider as ProviderName;
    return connectedAnswer(ctx, await connectStep(() => completeConnect(ctx, provider, body, { finisher: 'client', userId: viewer.userId })));
  },
});

export const providerRoutes = [connectRedirect, connectUrl, callback, complete];
