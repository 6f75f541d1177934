import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden, invalidRequest, notFound, XrpcError } from '../../toolkit/errors.ts';
import type { LastfmRelayConfig } from '../../toolkit/config.ts';
import type { AppContext } from '../context.ts';
import { browserBindingCookie } from '../providers/connect.ts';
import { asXrpcProviderCall } from '../providers/errors.ts';
import { lastfmAuthorizeUrl, lastfmSession } from '../providers/lastfm/client.ts';
import { sealTargetSecret } from './targets.ts';

/** How long the user has to approve at Last.fm: its tokens live an hour. */
const LINK_LIFETIME_MS = 60 * 60_000;

/** The callback on this server's API host that Last.fm's authorisation page sends the browser back to. */
export const LASTFM_CALLBACK_PATH = '/relay/lastfm/callback';

/** The cookie that binds a link to the browser that started it (as connecting a provider does: providers/connect.ts, Finisher). */
export const LASTFM_BINDING_COOKIE = 'earshot_relay_lastfm';

interface LinkState {
  userId: string;
  targetId: string;
  expiresAt: number;
  /** The binding cookie's value: only the browser holding it finishes the link. */
  nonce: string;
}

/** The binding cookie to set as linking starts (or, with an empty nonce and max age 0, to clear it at the callback). */
export function lastfmBindingCookie(ctx: AppContext, nonce: string, maxAgeSeconds = LINK_LIFETIME_MS / 1000): string {
  return browserBindingCookie(ctx, LASTFM_BINDING_COOKIE, LASTFM_CALLBACK_PATH, nonce, maxAgeSeconds);
}

const mac = (ctx: AppContext, payload: string) => createHmac('sha256', ctx.keys.oauthState).update(`relay-lastfm:${payload}`).digest('base64url');

/** The link's state, signed: the callback trusts only what this server wrote, for an hour. */
function encodeState(ctx: AppContext, state: LinkState): string {
  const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${payload}.${mac(ctx, payload)}`;
}

function decodeState(ctx: AppContext, text: string): LinkState | null {
  const [payload, signature, extra] = text.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(ctx, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkState;
  // A state without a nonce was issued before links were bound to a browser: it is started again.
  return state.expiresAt > Date.now() && typeof state.nonce === 'string' && state.nonce !== '' ? state : null;
}

function lastfmConfig(ctx: AppContext): LastfmRelayConfig {
  const config = ctx.config.relay.lastfm;
  if (!config) throw new XrpcError(400, 'ProviderNotConfigured', 'This server has no Last.fm application (LASTFM_RELAY_API_KEY)');
  return config;
}

/**
 * Where to send the user's browser to link a Last.fm target: Last.fm's authorisation page, coming
 * back to the callback; and the nonce the caller sets as the browser's binding cookie
 * (lastfmBindingCookie), so a link handed to someone else links nothing.
 */
export async function startLastfmLink(ctx: AppContext, userId: string, targetId: string): Promise<{ url: string; nonce: string }> {
  const config = lastfmConfig(ctx);
  const target = await ctx.db.selectFrom('relay_targets').select('kind').where('user_id', '=', userId).where('id', '=', targetId).executeTakeFirst();
  if (!target) throw notFound('No such relay target');
  if (target.kind !== 'lastfm') throw invalidRequest('Only a Last.fm target is linked through Last.fm');
  const nonce = randomBytes(18).toString('base64url');
  const state = encodeState(ctx, { userId, targetId, expiresAt: Date.now() + LINK_LIFETIME_MS, nonce });
  return { url: lastfmAuthorizeUrl(config, `${ctx.config.publicUrl}${LASTFM_CALLBACK_PATH}?state=${state}`), nonce };
}

/**
 * The callback, in the browser holding the binding cookie (`cookie`): the approved token becomes
 * a session key, kept sealed on the target. Another browser is refused before the token is used.
 */
export async function finishLastfmLink(
  ctx: AppContext,
  stateText: string,
  token: string,
  cookie: string | undefined,
): Promise<{ targetId: string; accountName: string }> {
  const config = lastfmConfig(ctx);
  const state = decodeState(ctx, stateText);
  if (!state) throw invalidRequest('This link is not valid or has expired: start linking again from the settings');
  const given = Buffer.from(cookie ?? '');
  const expected = Buffer.from(state.nonce);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw forbidden(
      `This Last.fm link was started in another browser (or at another address than ${ctx.config.publicUrl}): nothing was linked. Start linking again from the settings, in this browser.`,
    );
  }
  const session = await asXrpcProviderCall(() => lastfmSession(config, token));
  const result = await ctx.db
    .updateTable('relay_targets')
    .set({ secret_sealed: sealTargetSecret(ctx, state.userId, state.targetId, session.key), account_name: session.name, last_error: null })
    .where('user_id', '=', state.userId)
    .where('id', '=', state.targetId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound('The relay target was removed meanwhile');
  return { targetId: state.targetId, accountName: session.name };
}
