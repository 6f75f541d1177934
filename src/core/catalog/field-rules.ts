/**
 * The rules every value stored in the catalog meets, whoever writes it: a submitted listen
 * (scrobbling/listen-rules.ts), an edit (edits/update.ts), an enrichment (enrich/entries.ts).
 * The catalog owns them because it stores the values; the listen rules build on them.
 */

/*
 * Lengths count characters as Unicode code points, as JSON Schema (the API's
 * validator), Python (ListenBrainz) and PostgreSQL do; JavaScript's
 * `length` counts UTF-16 units, two for a character beyond U+FFFF.
 *
 * Every value within these limits must be storable, including in btree
 * indexes (at most ~2704 bytes an entry): names are indexed only through
 * bounded match keys (catalog/normalize.ts boundedKey); genre is indexed as
 * lower(genre), so it is kept short (256 characters are at most 1,024 bytes);
 * MBIDs, ISRCs and Spotify ids must have their fixed ASCII shapes.
 */

/** Artist, title, album and album artist. */
export const MAX_NAME_LENGTH = 1024;
/** Album-art URL (not indexed). */
export const MAX_SHORT_TEXT_LENGTH = 1024;
/** Genre: indexed as lower(genre). */
export const MAX_GENRE_LENGTH = 256;
export const MAX_TAGS = 50;
/** ListenBrainz's MAX_TAG_SIZE. */
export const MAX_TAG_LENGTH = 64;
/** Track and disc numbers and durations go into int4 columns. */
export const MAX_INT4 = 2_147_483_647;
/** 24 days, as ListenBrainz allows: longer is a bad value, not a long song. */
export const MAX_DURATION_MS = 24 * 24 * 60 * 60 * 1000;
/** Text PostgreSQL can store: no NUL, no lone UTF-16 surrogate. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'contains a NUL character';
  if (!value.isWellFormed()) return 'contains a lone UTF-16 surrogate';
  return null;
}

/** Whether `value` has more than `max` code points, without counting long strings in full. */
export function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}

/** Text within `max` characters that PostgreSQL can store; blank is refused when `required`. */
export function textFieldProblem(field: string, value: string | undefined, max: number, required = false): string | null {
  if (value === undefined) return required ? `${field} is missing` : null;
  if (required && !value.trim()) return `${field} is empty`;
  if (longerThan(value, max)) return `${field} is longer than ${max} characters`;
  const problem = textProblem(value);
  return problem && `${field} ${problem}`;
}

export function patternProblem(field: string, value: string | undefined, pattern: RegExp, shape: string): string | null {
  if (value === undefined || pattern.test(value)) return null;
  return `${field} must be ${shape}`;
}

export function integerProblem(field: string, value: number | undefined, min: number, max: number): string | null {
  if (value === undefined) return null;
  if (!Number.isInteger(value) || value < min || value > max) return `${field} must be a whole number from ${min} to ${max}`;
  return null;
}
