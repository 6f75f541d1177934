import { sha256Hex } from '../auth/hashing.ts';

/** "A feat. B", "A ft B", "A featuring B": the credit after the marker is a guest, not the artist. */
const ARTIST_FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;
/** "Song (feat. B)", "Song [ft. B]", "Song (with B)": guest credits inside a title. */
const TITLE_FEATURING = /\s*[([]\s*(?:feat\.?|ft\.?|featuring|with)\s+[^)\]]*[)\]]/gi;
const TRAILING_TITLE_FEATURING = /\s+(?:feat\.?|ft\.?|featuring)\s+.*$/i;

/** Case, accents, punctuation and spacing folded away; empty only for empty input. */
function fold(value: string): string {
  const folded = value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  // Names made only of punctuation ("...", "!!!") still need a key of their own.
  return folded || value.trim().toLowerCase();
}

/** Collapses runs of white space; the display form of submitted text. */
export function cleanText(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** The main artist of a credit: "Daft Punk feat. Pharrell" → "Daft Punk". */
export function primaryArtist(credit: string): string {
  return cleanText(credit).replace(ARTIST_FEATURING, '') || cleanText(credit);
}

/**
 * Match keys longer than this many code points are stored bounded. PostgreSQL
 * refuses btree entries over ~2704 bytes, and a key may be longer than its name
 * (NFKD expands "ﷺ" to 18 letters), so an unbounded key would make some valid
 * names impossible to store.
 */
export const MAX_KEY_CODE_POINTS = 200;

/**
 * A key PostgreSQL can always index: short keys unchanged; a longer one becomes
 * its first MAX_KEY_CODE_POINTS code points, "#" and the SHA-256 (hex) of its
 * UTF-8 bytes. Bounded keys are 265 code points, longer than any unbounded
 * one, so two keys stay equal exactly when the full keys are. Migration
 * 0005_bounded_keys.sql applies the same formula in SQL (code-point left(),
 * sha256(convert_to(key, 'UTF8'))); keep the two in step.
 */
export function boundedKey(key: string): string {
  // UTF-16 length is at least the code-point count, so short keys skip the count.
  if (key.length <= MAX_KEY_CODE_POINTS) return key;
  const codePoints = Array.from(key);
  if (codePoints.length <= MAX_KEY_CODE_POINTS) return key;
  return `${codePoints.slice(0, MAX_KEY_CODE_POINTS).join('')}#${sha256Hex(key)}`;
}

/**
 * A search query folded as names are for their match keys (case, accents, punctuation), so it can
 * be looked for inside them: "bjork" and "BJÖRK" both become "bjork", the key of "Björk". Unlike a
 * key, it keeps any featuring credit and is never bounded.
 */
export function searchKey(query: string): string {
  return fold(cleanText(query));
}

export function artistKey(credit: string): string {
  return boundedKey(fold(primaryArtist(credit)));
}

export function titleKey(title: string): string {
  const cleaned = cleanText(title);
  return boundedKey(fold(cleaned.replace(TITLE_FEATURING, '').replace(TRAILING_TITLE_FEATURING, '') || cleaned));
}

export function albumKey(album: string): string {
  return boundedKey(fold(album));
}
