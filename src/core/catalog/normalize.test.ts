import assert from 'node:assert/strict';
import { test } from 'node:test';
import { albumKey, artistKey, primaryArtist, titleKey } from './normalize.ts';

test('artist keys ignore case, accents, spacing, punctuation and guest credits', () => {
  const variants = ['Beyoncé', 'beyonce', '  BEYONCE ', 'Beyoncé feat. Jay-Z', 'Beyonce ft Jay Z', 'Beyoncé featuring JAY-Z'];
  for (const variant of variants) assert.equal(artistKey(variant), 'beyonce', variant);
});

test('"&" and "and" are the same word', () => {
  assert.equal(artistKey('Simon & Garfunkel'), artistKey('Simon and Garfunkel'));
});

test('title keys drop bracketed and trailing guest credits but keep other brackets', () => {
  assert.equal(titleKey('Get Lucky (feat. Pharrell Williams)'), 'get lucky');
  assert.equal(titleKey('Get Lucky [ft. Pharrell]'), 'get lucky');
  assert.equal(titleKey('Get Lucky feat. Pharrell'), 'get lucky');
  assert.equal(titleKey("Don't Stop Me Now"), 'don t stop me now');
  assert.notEqual(titleKey('Song (Live)'), titleKey('Song'));
});

test('names made of punctuation keep a key of their own', () => {
  assert.equal(artistKey('!!!'), '!!!');
  assert.notEqual(titleKey('...'), titleKey('?'));
  assert.equal(albumKey('÷'), '÷');
});

test('the primary artist keeps its display form', () => {
  assert.equal(primaryArtist('Daft Punk  feat. Pharrell'), 'Daft Punk');
});
