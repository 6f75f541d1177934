import { apiKeyProvenByDigest } from '../../core/auth/audioscrobbler-digest.ts';
import { md5Hex } from '../../core/auth/hashing.ts';
import { findUserByActor, type User } from '../../core/auth/index.ts';
import { verifyLogin } from '../../core/auth/users.ts';
import type { AppContext } from '../../core/context.ts';
import { digestsEqual } from './credentials.ts';
import { authenticationFailed, tokenExpired, unauthorizedToken } from './errors.ts';
import { defineMethod } from './method.ts';
import { element } from './response.ts';
import { createLastfmSession } from './sessions.ts';
import { exchangeToken, issueToken } from './tokens.ts';
import { requiredParam } from './params.ts';

function sessionElement(name: string, key: string) {
  return element('session', [element('name', name), element('key', key), element('subscriber', 0)]);
}

/** Desktop flow, step 1: a token the user then approves at /api/auth/. */
export const getToken = defineMethod({
  name: 'auth.getToken',
  postOnly: false,
  auth: 'signed',
  async handler({ ctx, apiKeyId }) {
    return element('token', await issueToken(ctx.db, apiKeyId));
  },
});

/** Desktop flow, step 2: the approved token becomes a session key. */
export const getSession = defineMethod({
  name: 'auth.getSession',
  postOnly: false,
  auth: 'signed',
  async handler({ ctx, params, apiKeyId }) {
    const result = await exchangeToken(ctx.db, requiredParam(params, 'token'), apiKeyId);
    switch (result.state) {
      case 'unknown':
        throw authenticationFailed('Invalid authentication token supplied');
      case 'expired':
        throw tokenExpired();
      case 'pending':
        throw unauthorizedToken();
      default:
        return sessionElement(result.handle, result.sessionKey);
    }
  },
});

/**
 * The user `username` names, when `authToken` is md5(username + md5(key)) for one of their API keys:
 * the older mobile sign-in (pylast's default) with an API key as the password, as the Audioscrobbler
 * handshake takes one. A real password cannot be checked this way without keeping md5(password).
 */
async function userByAuthToken(ctx: AppContext, username: string, authToken: string): Promise<User | null> {
  const user = await findUserByActor(ctx.db, username);
  if (!user) return null;
  const proven = await apiKeyProvenByDigest(ctx.db, ctx.keys.encryption, user.id, (keyDigest) => digestsEqual(authToken, md5Hex(username + keyDigest)));
  return proven ? user : null;
}

/**
 * Mobile flow: the account's handle (or DID) and password straight from the client, or (the older
 * form) `authToken` in place of the password. GET is accepted because clients send it so (the npm
 * `lastfm` client signs it as a GET); the request log masks `password` and `authToken` in query
 * strings (toolkit/redact.ts). Both count against the sign-in limits (ops/rate-limits.ts), a refusal
 * being error 4 (HTTP 403).
 */
export const getMobileSession = defineMethod({
  name: 'auth.getMobileSession',
  postOnly: false,
  auth: 'signed',
  async handler({ ctx, params, apiKeyId }) {
    const username = requiredParam(params, 'username');
    const authToken = params.has('password') ? undefined : params.get('authToken');
    const user = authToken ? await userByAuthToken(ctx, username, authToken) : await verifyLogin(ctx.db, username, requiredParam(params, 'password'));
    if (!user) throw authenticationFailed('Invalid username or password');
    return sessionElement(user.handle, await createLastfmSession(ctx.db, user.id, apiKeyId));
  },
});
