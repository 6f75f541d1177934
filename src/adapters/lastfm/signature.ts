import { md5Hex } from '../../core/auth/hashing.ts';
import { digestsEqual } from './credentials.ts';
import type { Params } from './params.ts';

/** Last.fm leaves these out of api_sig: the response format, the JSONP callback and the signature itself. */
const UNSIGNED = new Set(['format', 'callback', 'api_sig']);

/** md5 of every other parameter as name+value, sorted by name, followed by the shared secret. */
export function lastfmSignature(params: Params, sharedSecret: string): string {
  const names = [...params.keys()].filter((name) => !UNSIGNED.has(name)).sort();
  return md5Hex(names.map((name) => name + params.get(name)).join('') + sharedSecret);
}

export function hasValidSignature(params: Params, sharedSecret: string): boolean {
  const received = params.get('api_sig');
  return received !== undefined && digestsEqual(received, lastfmSignature(params, sharedSecret));
}
