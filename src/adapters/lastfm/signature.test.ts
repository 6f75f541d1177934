import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { hasValidSignature, lastfmSignature } from './signature.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

test('the signature is md5 of name+value pairs sorted by name, then the secret', () => {
  const params = new Map([
    ['method', 'track.scrobble'],
    ['track[0]', 'Café'],
    ['api_key', 'k'],
    ['artist[0]', 'Björk'],
    ['sk', 's'],
  ]);
  assert.equal(lastfmSignature(params, 'secret'), md5('api_keykartist[0]Björkmethodtrack.scrobbleskstrack[0]Cafésecret'));
});

test('format, callback and api_sig are not signed', () => {
  const base = new Map([
    ['method', 'auth.getToken'],
    ['api_key', 'k'],
  ]);
  const extended = new Map([...base, ['format', 'json'], ['callback', 'cb'], ['api_sig', 'x']]);
  assert.equal(lastfmSignature(extended, 'secret'), lastfmSignature(base, 'secret'));
});

test('verification accepts the right signature in any letter case and nothing else', () => {
  const params = new Map([
    ['method', 'auth.getToken'],
    ['api_key', 'k'],
  ]);
  const signature = lastfmSignature(params, 'secret');
  assert.equal(hasValidSignature(new Map([...params, ['api_sig', signature]]), 'secret'), true);
  assert.equal(hasValidSignature(new Map([...params, ['api_sig', signature.toUpperCase()]]), 'secret'), true);
  assert.equal(hasValidSignature(new Map([...params, ['api_sig', signature]]), 'other secret'), false);
  assert.equal(hasValidSignature(new Map([...params, ['api_sig', 'short']]), 'secret'), false);
  assert.equal(hasValidSignature(params, 'secret'), false);
});
