import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { expiredToken, invalidToken } from '../api/errors.ts';

const ISSUER = 'earshot';
const SESSION_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export type TokenKind = 'session' | 'access-token';

export interface TokenClaims {
  did: string;
  kind: TokenKind;
  /** Present on access tokens: the id of the stored token row. */
  tokenId: string | undefined;
}

/** A sign-in JWT, valid for 30 days. */
export async function signSessionToken(key: Uint8Array, did: string): Promise<{ token: string; expiresAt: Date }> {
  const expiresAtSeconds = Math.floor(Date.now() / 1000) + SESSION_LIFETIME_SECONDS;
  const token = await new SignJWT({ kind: 'session' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(did)
    .setIssuedAt()
    .setExpirationTime(expiresAtSeconds)
    .sign(key);
  return { token, expiresAt: new Date(expiresAtSeconds * 1000) };
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
    if (kind === 'access-token' && typeof payload.jti !== 'string') throw invalidToken();
    return { did: payload.sub, kind, tokenId: payload.jti };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw expiredToken();
    if (error instanceof joseErrors.JOSEError) throw invalidToken();
    throw error;
  }
}
