import { describe, expect, test } from 'vitest';
import { ellipsize, wrappedImageTitle, wrapText } from './wrapped-image-text.ts';

/** Every character 10 units wide: a width of 100 holds 10 characters. */
const measure = (text: string) => text.length * 10;

describe('Wrapped image text', () => {
  test('the title names the user by handle, and the year of a calendar year', () => {
    expect(wrappedImageTitle('alice.example.com', 'year', 2025)).toBe("@alice.example.com's Wrapped 2025");
    expect(wrappedImageTitle('alice', 'last30days', 2025)).toBe("@alice's Wrapped");
    expect(wrappedImageTitle('did:plc:abc', 'year', 2024)).toBe("did:plc:abc's Wrapped 2024");
  });

  test('text that fits stays on one line, whole', () => {
    expect(wrapText('Short one', 100, measure)).toEqual(['Short one']);
    expect(wrapText('  Spaced   out  ', 100, measure)).toEqual(['Spaced out']);
  });

  test('a long title goes on to a second line between words, whole when it fits there', () => {
    expect(wrapText('The Long and Winding', 100, measure)).toEqual(['The Long', 'and Windi…']);
    expect(wrapText('The Long and Wind', 100, measure)).toEqual(['The Long', 'and Wind']);
    expect(wrapText('Here Comes the Sun – The Beatles', 200, measure)).toEqual(['Here Comes the Sun –', 'The Beatles']);
  });

  test('only text beyond the second line is cut, with an ellipsis', () => {
    const lines = wrapText('one two three four five six seven eight nine ten eleven twelve', 100, measure);
    expect(lines).toEqual(['one two', 'three fou…']);
    expect(lines.every((line) => measure(line) <= 100)).toBe(true);
    expect(wrapText('one two three four five six', 100, measure, 3)).toEqual(['one two', 'three four', 'five six']);
  });

  test('a single word wider than the line is broken inside it', () => {
    expect(wrapText('Supercalifragilistic', 100, measure)).toEqual(['Supercalif', 'ragilistic']);
    expect(wrapText('Supercalifragilisticexpialidocious', 100, measure)).toEqual(['Supercalif', 'ragilisti…']);
  });

  test('ellipsize leaves fitting text alone and cuts the rest to fit with the ellipsis', () => {
    expect(ellipsize('fits', 100, measure)).toBe('fits');
    expect(ellipsize('does not fit here', 100, measure)).toBe('does not…');
  });
});
