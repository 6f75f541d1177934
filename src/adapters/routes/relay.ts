/** Where Last.fm's authorisation page sends the browser back when a user links a Last.fm relay target (core/relay/lastfm-link.ts). */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../http/route.ts';
import { finishLastfmLink, LASTFM_BINDING_COOKIE, LASTFM_CALLBACK_PATH, lastfmBindingCookie } from '../../core/relay/lastfm-link.ts';
import { invalidRequest } from '../../toolkit/errors.ts';

const lastfmCallback = defineRoute({
  method: 'GET',
  path: LASTFM_CALLBACK_PATH,
  summary:
    'Last.fm sends the browser here with the token the user approved; it is traded for a session key (auth.getSession), kept sealed on the relay target the signed state names. Only the browser that started linking (app.svc.relay.linkLastfm set its binding cookie) finishes it: another gets 403 and nothing is linked',
  auth: 'none',
  query: Type.Object({
    state: Type.Optional(Type.String({ maxLength: 1024 })),
    token: Type.Optional(Type.String({ maxLength: 256 })),
  }),
  success: { status: 200, schema: Type.Object({ targetId: Type.String(), accountName: Type.String(), message: Type.String() }) },
  errors: ['InvalidRequest', 'Forbidden', 'NotFound', 'ProviderNotConfigured', 'ProviderRefused', 'ProviderUnavailable'],
  async handler({ query, ctx, cookies, setCookie }) {
    if (!query.state || !query.token) throw invalidRequest('Last.fm did not send a token back: linking was cancelled or the link is incomplete');
    const cookie = cookies[LASTFM_BINDING_COOKIE];
    // The binding cookie has done its work (or was not this link's): it goes either way.
    if (cookie !== undefined) setCookie(lastfmBindingCookie(ctx, '', 0));
    const linked = await finishLastfmLink(ctx, query.state, query.token, cookie);
    return { ...linked, message: `Linked to Last.fm as ${linked.accountName}: your plays are relayed there from now on. You can close this window.` };
  },
});

export const relayRoutes = [lastfmCallback];
