import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { selectAlbums, selectArtists } from './group-view.ts';
import { ilikeContains } from './like-pattern.ts';
import { searchKey } from './normalize.ts';
import type { SortKey } from './page-query.ts';
import { hasListedSong, listedSongs, selectSongs, toSong } from './song-view.ts';

/** The query as typed and as the catalog's match keys fold it. */
interface Query {
  text: string;
  folded: string;
}

/** Exact matches (as the keys fold them) first, then the shortest, then alphabetically; the id keeps it stable. */
function bestMatchFirst(column: string, keyColumn: string, id: string, q: Query): SortKey[] {
  const ref = sql.ref(column);
  return [
    { expression: sql`${sql.ref(keyColumn)} = cast(${q.folded} as text)`, direction: 'desc' },
    { expression: sql`length(${ref})`, direction: 'asc' },
    { expression: ref, direction: 'asc' },
    { expression: sql.ref(id), direction: 'asc' },
  ];
}

const contains = (column: string, q: string): Expression<SqlBool> => ilikeContains(sql.ref(column), q);

/**
 * The name contains the query as typed, or its match key contains the folded query ("bjork" in
 * "bjork", the key of "Björk"). Both are trigram-indexed (migrations 0001, 0014). The typed form
 * still counts: a key drops featuring credits from titles, which a search may name.
 */
const matches = (column: string, keyColumn: string, q: Query): Expression<SqlBool> =>
  sql<SqlBool>`(${contains(column, q.text)} or ${contains(keyColumn, q.folded)})`;

/**
 * A song whose title, credit or artist's name matches. The artists come as an array, not an
 * `in (subquery)`: inside an OR a subquery is a filter run on every song, while `= any(array)`
 * joins the other branches in one bitmap scan of the indexes (tracks_match_idx for artist_id).
 */
const songMatches = (q: Query): Expression<SqlBool> =>
  sql<SqlBool>`(${matches('t.title', 't.title_key', q)} or ${contains('t.artist', q.text)}
    or t.artist_id = any(array(select a.id from artists a where ${contains('a.name_key', q.folded)})))`;

async function searchUsers(db: Database, q: string, limit: number) {
  const rows = await db
    .selectFrom('users')
    .select(['did', 'handle', 'display_name', 'avatar'])
    .where((eb) => eb.or([contains('handle', q), contains('display_name', q)]))
    .orderBy(sql`handle = lower(cast(${q} as text))`, 'desc')
    .orderBy(sql`length(handle)`)
    .orderBy('handle')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ did: row.did, handle: row.handle, displayName: row.display_name ?? undefined, avatar: row.avatar ?? undefined }));
}

/**
 * Artists, albums, songs and users whose names contain `text` (case, accents and punctuation
 * folded), at most `limit` of each, best match first; `liked` is relative to `viewerId`.
 */
export async function searchCatalog(db: Database, text: string, limit: number, viewerId: string | null) {
  const q = { text: text.trim(), folded: searchKey(text) };
  const [artists, albums, songs, users] = await Promise.all([
    selectArtists(db, {
      where: sql<SqlBool>`${matches('ar.name', 'ar.name_key', q)} and ${hasListedSong('artist_id', 'ar')}`,
      order: bestMatchFirst('ar.name', 'ar.name_key', 'ar.id', q),
      limit,
    }),
    selectAlbums(db, {
      where: sql<SqlBool>`${matches('al.title', 'al.title_key', q)} and ${hasListedSong('album_id', 'al')}`,
      order: bestMatchFirst('al.title', 'al.title_key', 'al.id', q),
      limit,
    }),
    selectSongs(db, listedSongs(db), { where: songMatches(q), order: bestMatchFirst('t.title', 't.title_key', 't.id', q), limit }, viewerId),
    searchUsers(db, q.text, limit),
  ]);
  return { artists, albums, songs: songs.map(toSong), users };
}
