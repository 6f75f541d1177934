/**
 * Short-lived signed stream URLs for the web player. An <audio> element cannot send an
 * Authorization header, and the sign-in token must never go into a URL, so the player asks for a
 * URL whose query carries the user, an expiry and an HMAC over both and the track, made with a key
 * derived from the server secret. Whoever holds the URL may stream that one track as that user
 * until it expires; nothing else. The file is looked up again with the user's visibility on each
 * request, so a file the user can no longer play stops streaming at once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expiredToken, invalidToken } from '../../toolkit/errors.ts';
import type { ServerKeys } from '../context.ts';

/** Long enough for a long album or a paused tab, short enough that a leaked URL (history, logs) soon stops working. */
export const STREAM_URL_SECONDS = 6 * 60 * 60;

export const SIGNED_STREAM_PATH = '/library/stream';

export interface StreamGrant {
  userId: string;
  trackId: string;
  /** Unix seconds. */
  expires: number;
}

const signature = (key: Uint8Array, grant: StreamGrant) =>
  createHmac('sha256', key).update(`stream\n${grant.userId}\n${grant.trackId}\n${grant.expires}`).digest('base64url');

/** The URL (a path on the API host) that streams `trackId` as `userId` for STREAM_URL_SECONDS from `now`. */
export function signStreamUrl(keys: ServerKeys, userId: string, trackId: string, now = new Date()): { url: string; expiresAt: string } {
  const grant = { userId, trackId, expires: Math.floor(now.getTime() / 1000) + STREAM_URL_SECONDS };
  const query = new URLSearchParams({ u: userId, exp: String(grant.expires), sig: signature(keys.streamUrl, grant) });
  return { url: `${SIGNED_STREAM_PATH}/${encodeURIComponent(trackId)}?${query}`, expiresAt: new Date(grant.expires * 1000).toISOString() };
}

/**
 * The grant a stream URL's parts carry, or a 401 refusal: InvalidToken when a part is missing or
 * the signature does not match (compared in constant time), ExpiredToken once it has expired.
 */
export function verifyStreamUrl(keys: ServerKeys, trackId: string, query: Record<string, unknown>, now = new Date()): StreamGrant {
  const { u, exp, sig } = query;
  if (typeof u !== 'string' || typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) {
    throw invalidToken('This stream URL is incomplete; ask for a new one (app.svc.library.getStreamUrl)');
  }
  const grant = { userId: u, trackId, expires: Number(exp) };
  const expected = Buffer.from(signature(keys.streamUrl, grant));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidToken('This stream URL is not signed by this server');
  if (grant.expires * 1000 <= now.getTime()) throw expiredToken('This stream URL has expired; ask for a new one (app.svc.library.getStreamUrl)');
  return grant;
}
