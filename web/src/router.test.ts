import { describe, expect, test } from 'vitest';
import { match } from './router.tsx';

describe('match', () => {
  test('names segments, decodes them, and takes a trailing slash', () => {
    expect(match('/u/:handle', '/u/alice')).toEqual({ handle: 'alice' });
    expect(match('/u/:handle/wrapped', '/u/bj%C3%B6rk/wrapped/')).toEqual({ handle: 'björk' });
    expect(match('/', '/')).toEqual({});
  });
  test('refuses other paths', () => {
    expect(match('/u/:handle', '/u/alice/more')).toBeNull();
    expect(match('/u/:handle', '/songs')).toBeNull();
  });
});
