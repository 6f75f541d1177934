import type { FastifyRequest } from 'fastify';
import { invalidParameter, missingParameter } from '../../core/library/errors.ts';
import type { SubsonicParams } from './method.ts';

/**
 * Booleans as the servers players are written against read them (Go's strconv.ParseBool):
 * desktop clients written in Python send `True`/`False`, others `1`/`0`.
 */
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['1', 't', 'T', 'TRUE', 'true', 'True'].map((text) => [text, true] as const),
  ...['0', 'f', 'F', 'FALSE', 'false', 'False'].map((text) => [text, false] as const),
]);

/**
 * An integer as Go's strconv.ParseInt reads one (an optional sign, then digits); anything else is
 * no value, as Navidrome's optional integers fall back to their default rather than refuse.
 */
export function parseInteger(text: string | undefined): number | undefined {
  const trimmed = text?.trim();
  return trimmed !== undefined && /^[+-]?\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The parameters of one request: the query string first, then a form body's (POST, the formPost extension). */
export function subsonicParams(query: string, form: string | undefined): SubsonicParams {
  const values = new Map<string, string[]>();
  for (const source of [query, form ?? '']) {
    for (const [name, value] of new URLSearchParams(source)) {
      const list = values.get(name);
      if (list) list.push(value);
      else values.set(name, [value]);
    }
  }
  // Navidrome reads an empty value as no value at all: `musicFolderId=` or `u=` are absent.
  const get = (name: string) => values.get(name)?.[0] || undefined;
  return {
    get,
    text: (name) => values.get(name)?.[0],
    all: (name) =>
      (values.get(name) ?? [])
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter((value) => value !== ''),
    required(name) {
      const value = get(name);
      if (value === undefined) throw missingParameter(name);
      return value;
    },
    integer: (name) => parseInteger(get(name)),
    boolean(name) {
      const value = get(name);
      if (value === undefined) return undefined;
      const parsed = BOOLEANS.get(value.trim());
      if (parsed === undefined) throw invalidParameter(`parameter ${name} must be true or false (or 1 or 0)`);
      return parsed;
    },
  };
}

/** The query string of a raw request URL, without the `?`. */
export function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start + 1);
}

/** A request's parameters: its query string's and a form body's (a body of any other type carries none). */
export function requestSubsonicParams(request: FastifyRequest): SubsonicParams {
  return subsonicParams(queryOf(request.url), typeof request.body === 'string' ? request.body : undefined);
}
