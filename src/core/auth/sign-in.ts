/** Signing in with a password, signing up (when the server allows it) and signing out. */
import { forbidden, invalidRequest, XrpcError } from '../../toolkit/errors.ts';
import type { AppContext } from '../context.ts';
import { endSession, startSession } from './sessions.ts';
import { createUser, verifyLogin, type NewUser } from './users.ts';
import type { Viewer } from './viewer.ts';

export interface SignedIn {
  did: string;
  handle: string;
  /** The sign-in session's Bearer JWT. */
  token: string;
  expiresAt: Date;
}

async function sessionFor(ctx: AppContext, user: { id: string; did: string; handle: string }, userAgent: string | undefined): Promise<SignedIn> {
  const session = await startSession(ctx.db, ctx.keys.jwt, user, userAgent);
  return { did: user.did, handle: user.handle, token: session.token, expiresAt: session.expiresAt };
}

/** Starts a sign-in session for the user named by `identifier` (handle or DID); 401 for a wrong name or password. */
export async function signIn(ctx: AppContext, identifier: string, password: string, userAgent: string | undefined): Promise<SignedIn> {
  const user = await verifyLogin(ctx.db, identifier, password);
  if (!user) throw new XrpcError(401, 'AuthenticationFailed', 'Invalid handle or password');
  return sessionFor(ctx, user, userAgent);
}

/** Creates the account and signs it in; refused (SignupClosed) unless EARSHOT_SIGNUP=open. */
export async function signUp(ctx: AppContext, input: NewUser, userAgent: string | undefined): Promise<SignedIn> {
  if (ctx.config.signup === 'closed') throw forbidden('Sign-up is closed on this server').withName('SignupClosed');
  return sessionFor(ctx, await createUser(ctx.db, input), userAgent);
}

/** Ends the caller's sign-in session; a credential of another kind has none to end. */
export async function signOut(ctx: AppContext, viewer: Viewer): Promise<void> {
  if (viewer.sessionId === undefined) {
    throw invalidRequest('logout ends a sign-in session; revoke an access token with DELETE /access-tokens/{id}');
  }
  await endSession(ctx.db, viewer.userId, viewer.sessionId);
}
