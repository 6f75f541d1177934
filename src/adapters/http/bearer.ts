import { authorize } from '../../core/auth/authenticate.ts';
import type { Viewer } from '../../core/auth/viewer.ts';
import type { CredentialCheck } from './endpoint.ts';
import type { AuthMode } from '../../core/auth/auth-mode.ts';

/** XRPC's and the plain routes' credentials: a sign-in JWT, access token or API key as `Authorization: Bearer`, by the declaration's mode. */
export function bearerCredentials(auth: AuthMode): CredentialCheck<Viewer | null> {
  return {
    stage: 'headers',
    description: `Authorization: Bearer (${auth})`,
    check: (request, ctx) => authorize(ctx, auth, request.headers.authorization),
  };
}
