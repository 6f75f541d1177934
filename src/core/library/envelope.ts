import { PACKAGE_VERSION } from '../../toolkit/package-root.ts';

/**
 * What every library answer says about the server, on both doors: the Subsonic response root
 * (`openSubsonic`) and the XRPC library envelope (spec 2.2, `openCompat`) carry the same values.
 */
export const SUBSONIC_API_VERSION = '1.16.1';
export const SERVER_TYPE = 'earshot';
export const SERVER_VERSION = PACKAGE_VERSION;

/** The spec's library envelope of a successful XRPC library operation, around its payload. */
export function libraryEnvelope<P extends object>(payload: P) {
  return { status: 'ok' as const, version: SUBSONIC_API_VERSION, type: SERVER_TYPE, serverVersion: SERVER_VERSION, openCompat: true, ...payload };
}
