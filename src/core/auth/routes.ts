import { Type } from '@sinclair/typebox';
import { defineRoute } from '../../adapters/http/route.ts';
import { DateTime, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { forbidden, XrpcError } from '../../toolkit/errors.ts';
import { createAccessToken, listAccessTokens, revokeAccessToken, type AccessTokenSummary } from './access-tokens.ts';
import { sessionRoutes } from './session-routes.ts';
import { startSession } from './sessions.ts';
import { createUser, verifyLogin } from './users.ts';

const Session = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  token: Type.String({ description: 'Bearer JWT for the API' }),
  expiresAt: DateTime(),
});

const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const login = defineRoute({
  method: 'POST',
  path: '/auth/login',
  summary: 'Sign in with a handle or DID and a password; returns a JWT',
  auth: 'none',
  body: Type.Object({
    identifier: Type.String({ minLength: 1, maxLength: 2048, description: 'handle or DID' }),
    password: Password,
  }),
  success: { status: 200, schema: Session },
  errors: ['AuthenticationFailed'],
  async handler({ body, ctx, userAgent }) {
    const user = await verifyLogin(ctx.db, body.identifier, body.password);
    if (!user) throw new XrpcError(401, 'AuthenticationFailed', 'Invalid handle or password');
    const session = await startSession(ctx.db, ctx.keys.jwt, user, userAgent);
    return { did: user.did, handle: user.handle, token: session.token, expiresAt: isoDateTime(session.expiresAt) };
  },
});

export const signup = defineRoute({
  method: 'POST',
  path: '/auth/signup',
  summary: 'Create an account (when EARSHOT_SIGNUP=open) and sign in',
  auth: 'none',
  body: Type.Object({
    handle: Type.String({ minLength: 1, maxLength: 253 }),
    password: Password,
    displayName: Type.Optional(Type.String({ maxLength: 200 })),
  }),
  success: { status: 201, schema: Session },
  errors: ['SignupClosed', 'HandleTaken'],
  async handler({ body, ctx, userAgent }) {
    if (ctx.config.signup === 'closed') throw forbidden('Sign-up is closed on this server').withName('SignupClosed');
    const user = await createUser(ctx.db, body);
    const session = await startSession(ctx.db, ctx.keys.jwt, user, userAgent);
    return { did: user.did, handle: user.handle, token: session.token, expiresAt: isoDateTime(session.expiresAt) };
  },
});

const AccessToken = Type.Object({
  id: Uuid(),
  name: Type.String(),
  createdAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()]),
  lastFour: Type.String({ description: 'The last four characters of the secret' }),
});

function accessTokenView(token: AccessTokenSummary) {
  return {
    id: token.id,
    name: token.name,
    createdAt: isoDateTime(token.createdAt),
    lastUsedAt: token.lastUsedAt && isoDateTime(token.lastUsedAt),
    lastFour: token.lastFour,
  };
}

export const listTokens = defineRoute({
  method: 'GET',
  path: '/access-tokens',
  summary: "List the caller's personal access tokens (secrets never shown)",
  auth: 'account',
  success: { status: 200, schema: Type.Object({ tokens: Type.Array(AccessToken) }) },
  async handler({ viewer, ctx }) {
    return { tokens: (await listAccessTokens(ctx.db, viewer.userId)).map(accessTokenView) };
  },
});

export const createToken = defineRoute({
  method: 'POST',
  path: '/access-tokens',
  summary: 'Create a personal access token; the secret is returned only in this response',
  auth: 'account',
  body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) }),
  success: {
    status: 201,
    schema: Type.Composite([AccessToken, Type.Object({ token: Type.String({ description: 'The secret; shown once' }) })]),
  },
  errors: ['LimitExceeded'],
  async handler({ body, viewer, ctx }) {
    const created = await createAccessToken(ctx.db, ctx.keys.jwt, viewer, body.name.trim());
    return { ...accessTokenView(created), token: created.token };
  },
});

export const deleteToken = defineRoute({
  method: 'DELETE',
  path: '/access-tokens/:id',
  summary: 'Revoke a personal access token immediately',
  auth: 'account',
  pathParams: Type.Object({ id: Uuid() }),
  success: { status: 204, schema: null },
  errors: ['NotFound'],
  async handler({ pathParams, viewer, ctx }) {
    await revokeAccessToken(ctx.db, viewer.userId, pathParams.id);
  },
});

export const authRoutes = [login, signup, ...sessionRoutes, listTokens, createToken, deleteToken];
