import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { albumPlayCount, artistPlayCount, selectAlbums, selectArtists } from './group-view.ts';
import type { SortKey } from './page-query.ts';
import { albumMatches, contains, creditMatches, nameMatches, searchText, type SearchText } from './search-match.ts';
import { hasListedSong, listedSongs, selectSongs, songPlayCount, toSong } from './song-view.ts';

/**
 * The one ranking of every search result: exact matches (as the keys fold them) first, then the
 * most played, then the shortest, then alphabetically; the id keeps it stable.
 */
function bestMatchFirst(column: string, keyColumn: string, id: string, q: SearchText, plays: Expression<unknown>): SortKey[] {
  const ref = sql.ref(column);
  return [
    { expression: sql`${sql.ref(keyColumn)} = cast(${q.folded} as text)`, direction: 'desc' },
    { expression: plays, direction: 'desc' },
    { expression: sql`length(${ref})`, direction: 'asc' },
    { expression: ref, direction: 'asc' },
    { expression: sql.ref(id), direction: 'asc' },
  ];
}

/** A song whose title, credit or artist's name matches (tracks_match_idx serves the artist ids). */
const songMatches = (q: SearchText): Expression<SqlBool> =>
  sql<SqlBool>`(${nameMatches('t.title', 't.title_key', q)} or ${creditMatches('t.artist', 't.artist_id', 'artists', q)})`;

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
 * Artists, albums (also by their artist), songs (also by their artist) and users whose names
 * contain `text` (case, accents and punctuation folded), at most `limit` of each, best match
 * first; `liked` is relative to `viewerId`.
 */
export async function searchCatalog(db: Database, text: string, limit: number, viewerId: string | null) {
  const q = searchText(text);
  const [artists, albums, songs, users] = await Promise.all([
    selectArtists(db, {
      where: sql<SqlBool>`${nameMatches('ar.name', 'ar.name_key', q)} and ${hasListedSong('artist_id', 'ar')}`,
      order: bestMatchFirst('ar.name', 'ar.name_key', 'ar.id', q, artistPlayCount),
      limit,
    }),
    selectAlbums(db, {
      where: sql<SqlBool>`${albumMatches(q)} and ${hasListedSong('album_id', 'al')}`,
      order: bestMatchFirst('al.title', 'al.title_key', 'al.id', q, albumPlayCount),
      limit,
    }),
    selectSongs(db, listedSongs(db), { where: songMatches(q), order: bestMatchFirst('t.title', 't.title_key', 't.id', q, songPlayCount), limit }, viewerId),
    searchUsers(db, q.typed, limit),
  ]);
  return { artists, albums, songs: songs.map(toSong), users };
}
