/**
 * The security headers of every answer of every host, set in one onSend hook where hosts are
 * made (createHttpServer), so no route can forget them. A route that sets one of these headers
 * itself (the Last.fm authorisation page's CSP) keeps its own.
 */
import type { FastifyInstance } from 'fastify';

/**
 * The web app's pages. Its scripts and styles are only the built files from this origin (no
 * inline script or style element; React sets style properties through the CSSOM, which
 * style-src does not govern). Images are the exception: album art is any http(s) URL that
 * scrobbling clients and imports wrote (as are avatars set before Earshot kept them, see
 * profiles/avatars.ts), so images load from anywhere. An image cannot run script; the cost is
 * that those hosts see viewers' addresses. `data:` is the favicon, an inline SVG.
 */
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https: http:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Everything else (JSON, XML, audio, covers, exports): nothing in it may load or run, and opened
 * on its own in a tab it is a sandboxed document of no origin, so a file that a browser still
 * took for a page could not reach the app's storage.
 */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The web app's service worker script (web/public/sw.js). A worker runs under its own script's
 * policy, not the page's: with FILE_CSP it could fetch nothing, so it gets the app's own origin,
 * and no more.
 */
export const SERVICE_WORKER_CSP = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** A year: the usual HSTS lifetime. Not includeSubDomains: other names under the domain are not ours to pin to https. */
const HSTS = 'max-age=31536000';

/** The headers for an answer of this content type, from a host whose public URL is (or is not) https. */
export function securityHeaders(contentType: string, https: boolean): Record<string, string> {
  const html = /^\s*text\/html\b/i.test(contentType);
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Same-origin requests keep their Referer and Origin; other hosts (album art, avatars, a
    // provider's consent page) learn neither which page nor which server the viewer was on.
    'referrer-policy': 'same-origin',
    'content-security-policy': html ? APP_CSP : FILE_CSP,
    ...(html ? { 'cross-origin-opener-policy': 'same-origin' } : {}),
    ...(https ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** Adds the headers to every answer of the instance, before any route is declared. */
export function registerSecurityHeaders(app: FastifyInstance, https: boolean): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    const headers = securityHeaders(String(reply.getHeader('content-type') ?? ''), https);
    for (const [name, value] of Object.entries(headers)) if (!reply.hasHeader(name)) reply.header(name, value);
    done(null, payload);
  });
}
