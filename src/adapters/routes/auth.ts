/** Signing in, signing up and signing out: the routes that start and end a sign-in session. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../http/route.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import { signIn, signOut, signUp, type SignedIn } from '../../core/auth/sign-in.ts';

const Session = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  token: Type.String({ description: 'Bearer JWT for the API' }),
  expiresAt: DateTime(),
});

const sessionAnswer = (signedIn: SignedIn) => ({ ...signedIn, expiresAt: isoDateTime(signedIn.expiresAt) });

const Password = Type.String({ minLength: 1, maxLength: 1024 });

const login = defineRoute({
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
    return sessionAnswer(await signIn(ctx, body.identifier, body.password, userAgent));
  },
});

const signup = defineRoute({
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
    return sessionAnswer(await signUp(ctx, body, userAgent));
  },
});

const logout = defineRoute({
  method: 'POST',
  path: '/auth/logout',
  summary: 'End the sign-in session of the token sent: it is refused from then on',
  auth: 'account',
  success: { status: 204, schema: null },
  async handler({ viewer, ctx }) {
    await signOut(ctx, viewer);
  },
});

export const authRoutes = [login, signup, logout];
