import { verifyLogin } from '../../core/auth/users.ts';
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
 * Mobile flow: the account's handle (or DID) and password straight from the client. GET is
 * accepted because clients send it so (the npm `lastfm` client signs it as a GET); the request
 * log masks `password` in query strings (api/redact.ts).
 */
export const getMobileSession = defineMethod({
  name: 'auth.getMobileSession',
  postOnly: false,
  auth: 'signed',
  async handler({ ctx, params, apiKeyId }) {
    const user = await verifyLogin(ctx.db, requiredParam(params, 'username'), requiredParam(params, 'password'));
    if (!user) throw authenticationFailed('Invalid username or password');
    return sessionElement(user.handle, await createLastfmSession(ctx.db, user.id, apiKeyId));
  },
});
