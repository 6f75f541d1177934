import type { FastifyInstance, FastifyRequest } from 'fastify';
import { malformedRequest } from './errors.ts';

/**
 * A request's parameters by name, from the query string and the body (JSON or a form) together,
 * as Maloja reads them: a name given several times in a query or form (`artist=A&artist=B`) is a
 * list. The body wins where both name a parameter.
 */
export type Fields = ReadonlyMap<string, unknown>;

/** A submission is one track: far less than this even with every field filled to its limit. */
export const MALOJA_BODY_LIMIT = 256 * 1024;

function formFields(text: string): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = fields.get(name);
    fields.set(name, previous === undefined ? value : [previous, value].flat());
  }
  return fields;
}

/** Form bodies arrive as Fields; JSON keeps Fastify's own parser. */
export function acceptMalojaBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MALOJA_BODY_LIMIT }, (_request, body, done) =>
    done(null, formFields(body as string)),
  );
}

const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

export function requestFields(request: FastifyRequest): Fields {
  const fields = formFields(queryOf(request.url));
  const body = request.body;
  if (body instanceof Map) for (const [name, value] of body) fields.set(name, value);
  else if (typeof body === 'object' && body !== null && !Array.isArray(body)) for (const [name, value] of Object.entries(body)) fields.set(name, value);
  else if (body !== undefined && body !== null && body !== '') throw malformedRequest('The body must be a JSON object or a form.');
  return fields;
}

/** The API key a request carries, under either name Maloja reads (`key`, `apikey`). */
export function malojaKey(fields: Fields): string | undefined {
  const key = fields.get('key') ?? fields.get('apikey');
  return typeof key === 'string' ? key.trim() : undefined;
}

/** For the rate limits: the credential a submission spends its budget against, from its fields. */
export function malojaKeyOf(request: FastifyRequest): string | undefined {
  try {
    return malojaKey(requestFields(request));
  } catch {
    return undefined;
  }
}
