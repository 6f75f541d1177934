import { sql, type Expression } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { albumMatches, creditMatches, nameMatches, searchText, type SearchText } from '../../../core/catalog/search-match.ts';
import { albumViewsWhere, artistViewsWhere, hasPlayableFile, songViewsWhere } from '../../../core/library/views.ts';
import { folderParam, offsetParam, sizeParam } from '../args.ts';
import { albumChild } from '../shapes.ts';
import { defineSubsonicMethod, type SubsonicParams } from '../method.ts';

/**
 * The text to look for, matched as every catalog search matches (catalog/search-match.ts), or null
 * for "everything": sync clients page through the whole library with an empty query or `""`.
 * Quotes and a trailing `*` (Lucene habits of clients) are dropped.
 */
function searched(query: string): SearchText | null {
  const text = query.replace(/^"|"$/g, '').replace(/\*$/, '').trim();
  return text === '' ? null : searchText(text);
}

interface Search {
  db: Database;
  userId: string;
  q: SearchText | null;
  folderId: number | undefined;
  params: SubsonicParams;
}

const page = (search: Search, kind: string) => ({
  limit: sizeParam(search.params, `${kind}Count`, 20),
  offset: offsetParam(search.params, `${kind}Offset`),
});

/** The ids of a page of artists found, as a subquery: the page is found and shown in one statement. */
function matchingArtists(search: Search) {
  const { db, userId, q, folderId } = search;
  const { limit, offset } = page(search, 'artist');
  let query = db
    .selectFrom('artists as ar')
    .select('ar.id')
    .where(sql<boolean>`exists (select 1 from tracks t left join albums al on al.id = t.album_id
      where coalesce(al.artist_id, t.artist_id) = ar.id and ${hasPlayableFile(sql.ref('t.id'), userId, folderId)})`);
  if (q) query = query.where(nameMatches('ar.name', 'ar.name_key', q));
  return query.orderBy('ar.name_key').orderBy('ar.id').limit(limit).offset(offset);
}

function matchingAlbums(search: Search) {
  const { db, userId, q, folderId } = search;
  const { limit, offset } = page(search, 'album');
  let query = db
    .selectFrom('albums as al')
    .select('al.id')
    .where(sql<boolean>`exists (select 1 from tracks t where t.album_id = al.id and ${hasPlayableFile(sql.ref('t.id'), userId, folderId)})`);
  if (q) query = query.where(albumMatches(q));
  return query.orderBy('al.title_key').orderBy('al.id').limit(limit).offset(offset);
}

function matchingSongs(search: Search) {
  const { db, userId, q, folderId } = search;
  const { limit, offset } = page(search, 'song');
  let query = db
    .selectFrom('tracks as t')
    .select('t.id')
    .where(hasPlayableFile(sql.ref('t.id'), userId, folderId));
  if (q) {
    query = query.where(
      sql<boolean>`(${nameMatches('t.title', 't.title_key', q)} or ${creditMatches('t.artist', 't.artist_id', 'artists', q)}
        or ${creditMatches('t.album', 't.album_id', 'albums', q)})`,
    );
  }
  return query.orderBy('t.title_key').orderBy('t.id').limit(limit).offset(offset);
}

/**
 * The column is among the ids of a page found: `= any(array(...))` runs the page's query once, then
 * reads the page's rows by primary key, where `in (...)` was planned as a hash of the page against a
 * scan of the whole table.
 */
const inPage = (column: string, ids: Expression<{ id: string }>) => sql<boolean>`${sql.ref(column)} = any(array(${ids}))`;

/** Each kind in one statement (a count of 0 asks for none of it), in the order its page was found in. */
async function searchAll(db: Database, userId: string, params: SubsonicParams) {
  const search: Search = { db, userId, q: searched(params.get('query') ?? ''), folderId: folderParam(params), params };
  const wanted = (kind: string) => page(search, kind).limit > 0;
  return {
    artist: wanted('artist')
      ? await artistViewsWhere(db, userId, (query) =>
          query
            .where(inPage('ar.id', matchingArtists(search)))
            .orderBy('ar.name_key')
            .orderBy('ar.id'),
        )
      : [],
    album: wanted('album')
      ? await albumViewsWhere(db, userId, (query) =>
          query
            .where(inPage('al.id', matchingAlbums(search)))
            .orderBy('al.title_key')
            .orderBy('al.id'),
        )
      : [],
    song: wanted('song')
      ? await songViewsWhere(db, userId, (query) =>
          query
            .where(inPage('t.id', matchingSongs(search)))
            .orderBy('t.title_key')
            .orderBy('t.id'),
        )
      : [],
  };
}

export const search3 = defineSubsonicMethod('search3', async ({ ctx, viewer, params }) => ({
  searchResult3: await searchAll(ctx.db, viewer.userId, params),
}));

/** search2 answers in folder shapes: artists as `{id, name}`, albums as directory children. */
export const search2 = defineSubsonicMethod('search2', async ({ ctx, viewer, params }) => {
  const found = await searchAll(ctx.db, viewer.userId, params);
  return {
    searchResult2: {
      artist: found.artist.map((artist) => ({ id: artist.id, name: artist.name, starred: artist.starred })),
      album: found.album.map(albumChild),
      song: found.song,
    },
  };
});
