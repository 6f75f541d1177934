/**
 * The web app's built files (web/dist, made by `npm run build:web`) served by the API host at
 * `/`: a file that exists is sent (its pre-compressed .gz when the client takes gzip; hashed
 * assets cached for a year), and any other GET for a page answers index.html so the app's own
 * routes work on reload: 200 for a path one of the app's pages matches (web/src/pages.json, the
 * patterns the app routes by), 404 otherwise, where the app shows its "Not found" page.
 * API paths never reach here with a page: their 404s stay JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../../toolkit/package-root.ts';
import { SERVICE_WORKER_CSP } from '../http/security-headers.ts';

/** The offline shell's worker (web/public/sw.js), at the root so that it may control every page. */
const SERVICE_WORKER = '/sw.js';

/** Where `npm run build:web` writes the app. */
export const WEB_DIST = path.join(PACKAGE_ROOT, 'web/dist');

/** Paths that belong to the API and protocols: unknown ones there answer JSON 404s, never the app. */
const API_PREFIXES = [
  '/xrpc/',
  '/rest/',
  '/auth/',
  '/access-tokens',
  '/providers/',
  '/export',
  '/covers/',
  '/artist-images/',
  '/avatars/',
  '/openapi.json',
  '/health',
  '/ready',
  '/metrics',
];

/** The app's page patterns (`/u/:handle`), one regular expression each; read once, at start. */
const PAGE_PATHS = Object.values(JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'web/src/pages.json'), 'utf8')) as Record<string, string>).map(
  (pattern) => new RegExp(`^${pattern.replace(/:\w+/g, '[^/]+')}/?$`),
);

export const isPagePath = (urlPath: string) => PAGE_PATHS.some((page) => page.test(urlPath));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

export const isApiPath = (urlPath: string) => API_PREFIXES.some((prefix) => urlPath === prefix.replace(/\/$/, '') || urlPath.startsWith(prefix));

/** The built file a path names, or undefined (outside the build, or none). */
function builtFile(urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const file = path.resolve(WEB_DIST, `.${decoded}`);
  if (!file.startsWith(WEB_DIST + path.sep)) return undefined;
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
}

/** Answers a GET for the app, or false when it is not the app's (an API path, or no build). */
export function serveWebApp(request: FastifyRequest, reply: FastifyReply): FastifyReply | false {
  const urlPath = request.url.split('?')[0]!;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || isApiPath(urlPath)) return false;
  let file = builtFile(urlPath);
  if (!file && path.extname(urlPath) === '') {
    file = builtFile('/index.html');
    if (!isPagePath(urlPath)) reply.code(404);
  }
  if (!file) return false;
  const hashed = file.includes(`${path.sep}assets${path.sep}`);
  reply.header('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream');
  reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.header('vary', 'accept-encoding');
  if (urlPath === SERVICE_WORKER) reply.header('content-security-policy', SERVICE_WORKER_CSP);
  const gzipped = `${file}.gz`;
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) && fs.existsSync(gzipped)) {
    reply.header('content-encoding', 'gzip');
    return reply.send(fs.createReadStream(gzipped));
  }
  return reply.send(fs.createReadStream(file));
}
