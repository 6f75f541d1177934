import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, DB } from '../../toolkit/db/index.ts';
import { invalidParameter, missingParameter } from '../../core/library/errors.ts';
import { hasPlayableFile } from '../../core/library/views.ts';
import { folderParam, offsetParam, sizeParam } from './args.ts';
import type { SubsonicParams } from './method.ts';
import { ARTICLE_PATTERN } from './folders.ts';

export const ALBUM_LIST_TYPES = [
  'random',
  'newest',
  'highest',
  'frequent',
  'recent',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'starred',
  'byYear',
  'byGenre',
] as const;
type AlbumListType = (typeof ALBUM_LIST_TYPES)[number];

type AlbumQuery = SelectQueryBuilder<DB & { al: DB['albums'] }, 'al', { id: string }>;

const isListType = (value: string): value is AlbumListType => (ALBUM_LIST_TYPES as readonly string[]).includes(value);

/** The user's plays per album, counted once for the whole list rather than once per album. */
function userAlbumPlays(db: Database, userId: string) {
  return db
    .selectFrom('scrobbles as sc')
    .innerJoin('tracks as pt', 'pt.id', 'sc.track_id')
    .select(['pt.album_id', sql<number>`count(*)`.as('plays'), sql<Date>`max(sc.listened_at)`.as('last_played')])
    .where('sc.user_id', '=', userId)
    .where('pt.album_id', 'is not', null)
    .groupBy('pt.album_id')
    .as('up');
}

function requiredInteger(params: SubsonicParams, name: string): number {
  const value = params.integer(name);
  if (value === undefined) throw missingParameter(name);
  return value;
}

/** Orders and narrows the albums for one list type. */
function ordered(db: Database, query: AlbumQuery, type: AlbumListType, userId: string, params: SubsonicParams): AlbumQuery {
  switch (type) {
    case 'random':
      return query.orderBy(sql`random()`);
    case 'newest':
      return query.orderBy('al.created_at', 'desc').orderBy('al.id');
    // There are no ratings: the best an album can be rated is starred, then most played.
    case 'highest':
      return query
        .leftJoin(userAlbumPlays(db, userId), 'up.album_id', 'al.id')
        .orderBy(sql`exists (select 1 from stars hs where hs.user_id = ${userId} and hs.subject_kind = 'album' and hs.subject_id = al.id)`, 'desc')
        .orderBy(sql`coalesce(up.plays, 0)`, 'desc')
        .orderBy('al.title_key');
    case 'frequent':
      return query.innerJoin(userAlbumPlays(db, userId), 'up.album_id', 'al.id').orderBy('up.plays', 'desc').orderBy('al.title_key');
    case 'recent':
      return query.innerJoin(userAlbumPlays(db, userId), 'up.album_id', 'al.id').orderBy('up.last_played', 'desc').orderBy('al.id');
    case 'alphabeticalByName':
      return query.orderBy('al.title_key').orderBy('al.id');
    case 'alphabeticalByArtist':
      // By the artist's name as the artist lists sort it: "The Alpha Band" under A (folders.ts).
      return query.orderBy(sql`regexp_replace(lower(al.artist), ${ARTICLE_PATTERN}, '')`).orderBy('al.title_key').orderBy('al.id');
    case 'starred':
      return query
        .innerJoin('stars as st', (join) => join.onRef('st.subject_id', '=', 'al.id').on('st.subject_kind', '=', 'album').on('st.user_id', '=', userId))
        .orderBy('st.created_at', 'desc')
        .orderBy('al.id');
    case 'byYear': {
      // A reversed range (fromYear > toYear) lists the same years, newest first.
      const from = requiredInteger(params, 'fromYear');
      const to = requiredInteger(params, 'toYear');
      return query
        .where('al.year', '>=', Math.min(from, to))
        .where('al.year', '<=', Math.max(from, to))
        .orderBy('al.year', from <= to ? 'asc' : 'desc')
        .orderBy('al.title_key');
    }
    case 'byGenre': {
      const genre = params.required('genre');
      return query
        .where((eb) =>
          eb.or([
            eb(sql`lower(al.genre)`, '=', genre.toLowerCase()),
            eb.exists(
              eb.selectFrom('tracks as gt').select('gt.id').whereRef('gt.album_id', '=', 'al.id').where(sql<boolean>`lower(gt.genre) = ${genre.toLowerCase()}`),
            ),
          ]),
        )
        .orderBy('al.title_key');
    }
  }
}

/** The album ids of getAlbumList and getAlbumList2: `type` (required), `size` ≤ 500 (10), `offset`, `musicFolderId`. */
export async function albumListIds(db: Database, userId: string, params: SubsonicParams): Promise<string[]> {
  const type = params.required('type');
  if (!isListType(type)) throw invalidParameter(`unknown album list type ${type}; one of ${ALBUM_LIST_TYPES.join(', ')}`);
  const folderId = folderParam(params);
  const base: AlbumQuery = db
    .selectFrom('albums as al')
    .select('al.id')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracks as t')
          .select('t.id')
          .whereRef('t.album_id', '=', 'al.id')
          .where(hasPlayableFile(sql.ref('t.id'), userId, folderId)),
      ),
    );
  const rows = await ordered(db, base, type, userId, params)
    .limit(sizeParam(params, 'size', 10))
    .offset(offsetParam(params))
    .execute();
  return rows.map((row) => row.id);
}
