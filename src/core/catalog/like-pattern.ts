import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** LIKE treats these as wildcards or as its escape character; searched text must match them literally. */
const LIKE_SPECIAL = /[\\%_]/g;

/**
 * Case-insensitive match of `column` against literal `parts`, with anything
 * in between: ["", "love", ""] matches every value containing "love".
 * The pattern is a bound parameter, so no part ever becomes SQL.
 */
export function ilikeParts(column: Expression<unknown>, parts: readonly string[]): RawBuilder<SqlBool> {
  const pattern = parts.map((part) => part.replace(LIKE_SPECIAL, '\\$&')).join('%');
  // Backslash is LIKE's default escape character, the one the pattern uses.
  return sql<SqlBool>`${column} ilike ${pattern}`;
}

/** Case-insensitive substring match. */
export const ilikeContains = (column: Expression<unknown>, text: string) => ilikeParts(column, ['', text, '']);
