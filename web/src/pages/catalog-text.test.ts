import { describe, expect, test } from 'vitest';
import { catalogId, containsValue, filterErrorPosition, formatDuration } from './catalog-text.ts';

describe('filterErrorPosition', () => {
  test('reads the position the message ends on or the hint follows', () => {
    expect(filterErrorPosition('invalid filter: expected a value, found the end of the filter at position 8')).toBe(8);
    expect(filterErrorPosition('invalid filter: unknown field "plays" at position 1; filterable fields: title, artist')).toBe(1);
  });
  test('skips a position named inside the problem', () => {
    expect(filterErrorPosition('invalid filter: expected ")" to close the "(" at position 3, found the end of the filter at position 12')).toBe(12);
  });
  test('null for other messages', () => {
    expect(filterErrorPosition('limit must be <= 100')).toBeNull();
  });
});

test('containsValue escapes what RSQL would read as syntax or wildcards', () => {
  expect(containsValue('a*b "c" \\')).toBe('"*a\\*b \\"c\\" \\\\*"');
});

test('catalogId and formatDuration', () => {
  expect(catalogId('artist', 'earshot:artist:abc')).toBe('abc');
  expect(catalogId('album', 'earshot:artist:abc')).toBeNull();
  expect(formatDuration(369000)).toBe('6:09');
  expect(formatDuration(3723000)).toBe('1:02:03');
});
