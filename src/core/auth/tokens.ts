import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { expiredToken, invalidToken } from '../../toolkit/errors.ts';

const ISSUER = 'earshot';
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export type TokenKind = 'session' | 'access-token';

export interface TokenClaims {
  did: string;
  kind: TokenKind;
  /** The id of the stored row (access token or sign-in session) the token is valid only while it exists. */
  id: string;
}

/** A sign-in JWT naming its session row, valid until the row's expiry (whole seconds). */
export function signSessionToken(key: Uint8Array, did: string, sessionId: string, expiresAt: Date): Promise<string> {
  return new SignJWT({ kind: 'session' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(did)
    .setJti(sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

/** A personal access token: long-lived, revoked by deleting its row. */
export function signAccessToken(key: Uint8Array, did: string, tokenId: string): Promise<string> {
  return new SignJWT({ kind: 'access-token' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(did)
    .setJti(tokenId)
    .setIssuedAt()
    .sign(key);
}

export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}

export async function verifyToken(key: Uint8Array, token: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
    const kind = payload.kind;
    if (typeof payload.sub !== 'string' || (kind !== 'session' && kind !== 'access-token')) throw invalidToken();
    if (typeof payload.jti !== 'string') {
      // Sign-in tokens issued before sessions were stored name no session, so nothing could end them.
      throw invalidToken(kind === 'session' ? 'This sign-in token is from before sessions could be ended; sign in again' : undefined);
    }
    return { did: payload.sub, kind, id: payload.jti };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw expiredToken();
    if (error instanceof joseErrors.JOSEError) throw invalidToken();
    throw error;
  }
}
