/** The caller's sign-in sessions: listing them and ending one (another device's, or this one). */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../http/route.ts';
import { DateTime, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { endSession, listSessions } from '../../core/auth/sessions.ts';

const SignInSession = Type.Object({
  id: Uuid(),
  userAgent: Type.Union([Type.String(), Type.Null()], { description: 'the User-Agent of the client that signed in' }),
  createdAt: DateTime(),
  lastUsedAt: DateTime({ description: 'to the minute' }),
  expiresAt: DateTime(),
  current: Type.Boolean({ description: 'whether this is the session of the token making the request' }),
});

const listSignInSessions = defineRoute({
  method: 'GET',
  path: '/auth/sessions',
  summary: "List the caller's sign-in sessions that have not expired, newest first",
  auth: 'account',
  success: { status: 200, schema: Type.Object({ sessions: Type.Array(SignInSession) }) },
  async handler({ viewer, ctx }) {
    const sessions = await listSessions(ctx.db, viewer.userId);
    return {
      sessions: sessions.map((session) => ({
        id: session.id,
        userAgent: session.userAgent,
        createdAt: isoDateTime(session.createdAt),
        lastUsedAt: isoDateTime(session.lastUsedAt),
        expiresAt: isoDateTime(session.expiresAt),
        current: session.id === viewer.sessionId,
      })),
    };
  },
});

const deleteSignInSession = defineRoute({
  method: 'DELETE',
  path: '/auth/sessions/:id',
  summary: "End one of the caller's sign-in sessions (another device's, or this one) immediately",
  auth: 'account',
  pathParams: Type.Object({ id: Uuid() }),
  success: { status: 204, schema: null },
  errors: ['NotFound'],
  async handler({ pathParams, viewer, ctx }) {
    await endSession(ctx.db, viewer.userId, pathParams.id);
  },
});

export const sessionRoutes = [listSignInSessions, deleteSignInSession];
