/** The caller's personal access tokens: listing, creating (the secret shown once) and revoking them. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../http/route.ts';
import { DateTime, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { createAccessToken, listAccessTokens, revokeAccessToken, type AccessTokenSummary } from '../../core/auth/access-tokens.ts';

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

const listTokens = defineRoute({
  method: 'GET',
  path: '/access-tokens',
  summary: "List the caller's personal access tokens (secrets never shown)",
  auth: 'account',
  success: { status: 200, schema: Type.Object({ tokens: Type.Array(AccessToken) }) },
  async handler({ viewer, ctx }) {
    return { tokens: (await listAccessTokens(ctx.db, viewer.userId)).map(accessTokenView) };
  },
});

const createToken = defineRoute({
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

const deleteToken = defineRoute({
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

export const accessTokenRoutes = [listTokens, createToken, deleteToken];
