import { sql, type Expression, type SqlBool } from 'kysely';
import { ilikeContains } from './like-pattern.ts';
import { searchKey } from './normalize.ts';

/**
 * The one matching rule every search of the catalog uses (XRPC search, Subsonic search2/search3):
 * a name matches when it contains the query as typed, or its match key contains the query folded
 * as keys are (case, accents, punctuation: "bjorn" and "BJÖRN" find Björn). The typed form still
 * counts: a key drops featuring credits from titles, which a search may name.
 */
export interface SearchText {
  typed: string;
  folded: string;
}

export const searchText = (text: string): SearchText => ({ typed: text.trim(), folded: searchKey(text) });

export const contains = (column: string, text: string): Expression<SqlBool> => ilikeContains(sql.ref(column), text);

/** A name column and its key column, both trigram-indexed (migrations 0001, 0014, 0016). */
export const nameMatches = (column: string, keyColumn: string, q: SearchText): Expression<SqlBool> =>
  sql<SqlBool>`(${contains(column, q.typed)} or ${contains(keyColumn, q.folded)})`;

/** The catalog rows a credit may link to, with the key their name is matched by. */
const LINKED = {
  artists: 'name_key',
  albums: 'title_key',
} as const;

/**
 * A row's credit text (a song's artist or album) as typed, or the artist or album it links to by
 * its key. The linked ids come as an array, not an `in (subquery)`: inside an OR a subquery is a
 * filter run on every row, while `= any(array)` joins the other branches in one bitmap scan.
 */
export function creditMatches(column: string, idColumn: string, linked: keyof typeof LINKED, q: SearchText): Expression<SqlBool> {
  const linkedIds = sql`array(select l.id from ${sql.table(linked)} l where ${contains(`l.${LINKED[linked]}`, q.folded)})`;
  return sql<SqlBool>`(${contains(column, q.typed)} or ${sql.ref(idColumn)} = any(${linkedIds}))`;
}

/** An album whose title matches, or whose artist does (credited or linked): "bjork" finds Björk's albums. */
export const albumMatches = (q: SearchText): Expression<SqlBool> =>
  sql<SqlBool>`(${nameMatches('al.title', 'al.title_key', q)} or ${creditMatches('al.artist', 'al.artist_id', 'artists', q)})`;
