import { createHash } from 'node:crypto';

/** Last.fm leaves the response format and the signature itself out of api_sig. */
const UNSIGNED = new Set(['format', 'callback', 'api_sig']);

/** Last.fm's api_sig: md5 of every other parameter as name + value, sorted by name, then the application's secret. */
export function signLastfmCall(params: Map<string, string>, secret: string): string {
  const names = [...params.keys()].filter((name) => !UNSIGNED.has(name)).sort();
  return createHash('md5')
    .update(names.map((name) => name + params.get(name)).join('') + secret, 'utf8')
    .digest('hex');
}
