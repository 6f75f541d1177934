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
  const get = (name: string) => values.get(name)?.[0];
  return {
    get,
    all: (name) => values.get(name) ?? [],
    required(name) {
      const value = get(name);
      if (value === undefined) throw missingParameter(name);
      return value;
    },
    integer(name) {
      const value = get(name);
      if (value === undefined || value === '') return undefined;
      if (!/^-?\d{1,15}$/.test(value.trim())) throw invalidParameter(`parameter ${name} must be an integer`);
      return Number(value.trim());
    },
    boolean(name) {
      const value = get(name);
      if (value === undefined || value === '') return undefined;
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
