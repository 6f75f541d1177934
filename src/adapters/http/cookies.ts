/** Cookies as handlers see them: the request's by name, and a setter adding a Set-Cookie header to the answer. */
import type { FastifyReply } from 'fastify';

/** The Cookie header's pairs (RFC 6265 §5.4); a malformed pair is skipped, a value is URI-decoded when it can be. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const value = pair.slice(at + 1).trim();
    try {
      cookies[pair.slice(0, at).trim()] = decodeURIComponent(value);
    } catch {
      cookies[pair.slice(0, at).trim()] = value;
    }
  }
  return cookies;
}

/** Adds a Set-Cookie header (the whole value: `name=value; attributes`) to the answer, beside any set before. */
export const cookieSetter = (reply: FastifyReply) => (cookie: string) =>
  void reply.header('set-cookie', [...[reply.getHeader('set-cookie') ?? []].flat().map(String), cookie]);
