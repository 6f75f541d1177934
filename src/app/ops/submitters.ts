import { XrpcError } from '../../toolkit/errors.ts';
import { authenticateApiKey } from '../../core/auth/api-keys.ts';
import { authenticate } from '../../core/auth/authenticate.ts';
import type { AppContext } from '../../core/context.ts';
import { sessionUser } from '../../adapters/audioscrobbler/sessions.ts';
import { findLastfmSession } from '../../adapters/lastfm/sessions.ts';

// Host wiring, not core: telling whose a credential is needs each protocol's sessions (Last.fm's,
// Audioscrobbler's), and only the rate limits of this folder ask.

/** The credential a submission (or any Last.fm call) carries, as the rate limits read it from the request. */
export type SubmissionCredential =
  /** An API key, sign-in JWT or access token: ListenBrainz's and XRPC's Authorization, Maloja's key. */
  | { kind: 'token'; token: string }
  /** Last.fm's api_key, with the session key of the user it acts for when the call has one. */
  | { kind: 'lastfm'; apiKey: string; sessionKey: string | undefined }
  | { kind: 'audioscrobbler'; sessionId: string };

export interface CredentialOwner {
  userId: string;
  handle: string;
}

/** The account a credential belongs to; null for one that belongs to none (the route refuses it). */
export type AccountOf = (credential: SubmissionCredential) => Promise<CredentialOwner | null>;

async function tokenOwner(ctx: AppContext, token: string): Promise<CredentialOwner | null> {
  try {
    return await authenticate(ctx, `Bearer ${token}`);
  } catch (error) {
    if (error instanceof XrpcError) return null;
    throw error;
  }
}

/**
 * Looks credentials up as the routes will: every key, token and session of an account then spends
 * the account's one submissions budget, so making more keys buys no more submissions.
 */
export function accountOf(ctx: AppContext): AccountOf {
  return async (credential) => {
    switch (credential.kind) {
      case 'token':
        return tokenOwner(ctx, credential.token);
      case 'audioscrobbler': {
        const userId = await sessionUser(ctx.db, credential.sessionId);
        return userId === null
          ? null
          : ((await ctx.db.selectFrom('users').select(['id as userId', 'handle']).where('id', '=', userId).executeTakeFirst()) ?? null);
      }
      case 'lastfm': {
        // A desktop application's key may belong to its author: the session names who is acting.
        const owner = await authenticateApiKey(ctx.db, credential.apiKey);
        const session = owner && credential.sessionKey ? await findLastfmSession(ctx.db, credential.sessionKey, owner.apiKeyId) : null;
        return session ?? owner;
      }
    }
  };
}
