/**
 * The browser side of connecting an account: `GET /providers/<name>/connect` sends a signed-in
 * user to the provider (a client that cannot follow a redirect with its Bearer token asks with
 * POST and gets the URL), and the provider sends them back to `/providers/<name>/callback`. Who
 * may finish it there is bound at the start (core/providers/connect.ts, Finisher): the starting browser by a
 * cookie, or the starting client by its credentials at `/providers/<name>/complete`.
 */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../http/route.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../toolkit/config.ts';
import { bindingCookie, bindingCookieName } from '../../core/providers/connect.ts';
import { finishByClient, finishInBrowser, startConnect } from './connect-steps.ts';

const ProviderParam = Type.Object({
  provider: Type.Union(
    PROVIDER_NAMES.map((name) => Type.Literal(name)),
    { description: 'filehostA, filehostB or musicstream' },
  ),
});
const ConnectQuery = Type.Object({
  folder: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'file hosts: the folder to mirror into the library (default /Music)' })),
});
const CONNECT_ERRORS = ['InvalidRequest', 'ProviderNotConfigured'] as const;

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
    const { url, nonce } = await startConnect(ctx, viewer.userId, provider, query.folder, 'browser');
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
        description:
          "browser (default): this answer's cookie binds the authorization to the browser that receives it; client: the URL may be opened in any browser, and the caller posts the callback's address to /providers/<name>/complete",
      }),
    ),
  }),
  success: { status: 200, schema: Type.Object({ url: Type.String(), expiresAt: DateTime({ description: 'consent must be given before this' }) }) },
  errors: CONNECT_ERRORS,
  async handler({ pathParams, query, viewer, ctx, setCookie }) {
    const provider = pathParams.provider as ProviderName;
    const finisher = query.finish ?? 'browser';
    const { url, expiresAt, nonce } = await startConnect(ctx, viewer.userId, provider, query.folder, finisher);
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
    return finishInBrowser(ctx, provider, query, cookie);
  },
});

const complete = defineRoute({
  method: 'POST',
  path: '/providers/:provider/complete',
  summary:
    'Finishes an authorization started with finish=client: the caller (the same account) posts the query of the callback address the provider sent the browser to, and the account is connected',
  auth: 'account',
  pathParams: ProviderParam,
  body: CallbackQuery,
  success: { status: 200, schema: ConnectedAnswer },
  errors: CALLBACK_ERRORS,
  async handler({ pathParams, body, viewer, ctx }) {
    const provider = pathParams.provider as ProviderName;
    return finishByClient(ctx, provider, body, viewer.userId);
  },
});

export const providerRoutes = [connectRedirect, connectUrl, callback, complete];
