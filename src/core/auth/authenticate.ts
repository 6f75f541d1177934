import type { AppContext } from '../context.ts';
import { authMissing, insufficientScope, invalidToken } from '../../toolkit/errors.ts';
import { ACCEPTED_CREDENTIALS, type AuthMode } from './auth-mode.ts';
import { checkAccessToken } from './access-tokens.ts';
import { authenticateApiKey } from './api-keys.ts';
import { sessionUser } from './sessions.ts';
import { looksLikeJwt, verifyToken } from './tokens.ts';
import type { Viewer } from './viewer.ts';

/** The token of an `Authorization: Bearer <token>` header; null when no such header was sent. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw invalidToken('Authorization header must be "Bearer <token>"');
  return match[1]!;
}

async function accessTokenUser(ctx: AppContext, tokenId: string, token: string, did: string) {
  if (!(await checkAccessToken(ctx.db, tokenId, token))) throw invalidToken('Access token has been revoked');
  const user = await ctx.db.selectFrom('users').select(['id', 'did', 'handle']).where('did', '=', did).executeTakeFirst();
  if (!user) throw invalidToken('Token subject no longer exists');
  return user;
}

async function viewerFromJwt(ctx: AppContext, token: string): Promise<Viewer> {
  const claims = await verifyToken(ctx.keys.jwt, token);
  if (claims.kind === 'session') {
    const user = await sessionUser(ctx.db, claims.id, claims.did);
    return { userId: user.id, did: user.did, handle: user.handle, credential: 'session', sessionId: claims.id };
  }
  const user = await accessTokenUser(ctx, claims.id, token, claims.did);
  return { userId: user.id, did: user.did, handle: user.handle, credential: 'access-token', accessTokenId: claims.id };
}

/**
 * Resolves a Bearer credential: a sign-in JWT, a personal access token, or an
 * application API key. Throws 401 for a credential that is present but bad.
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<Viewer | null> {
  const token = bearerToken(authorization);
  if (token === null) return null;
  if (looksLikeJwt(token)) return viewerFromJwt(ctx, token);
  const owner = await authenticateApiKey(ctx.db, token);
  if (!owner) throw invalidToken();
  return { userId: owner.userId, did: owner.did, handle: owner.handle, credential: 'api-key' };
}

export async function requireViewer(ctx: AppContext, authorization: string | undefined): Promise<Viewer> {
  const viewer = await authenticate(ctx, authorization);
  if (!viewer) throw authMissing();
  return viewer;
}

/** The caller as an operation's auth mode admits it: 401 without a good credential, 403 for one of the wrong kind. */
export async function authorize(ctx: AppContext, auth: AuthMode, authorization: string | undefined): Promise<Viewer | null> {
  if (auth === 'none') return null;
  if (auth === 'optional') return authenticate(ctx, authorization);
  const viewer = await requireViewer(ctx, authorization);
  if (!ACCEPTED_CREDENTIALS[auth].includes(viewer.credential)) {
    throw insufficientScope(`An API key cannot do this; use a sign-in session or an access token`);
  }
  return viewer;
}
