import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { hasPlayableFile } from './views.ts';

/**
 * Catalog queries scoped to what a user can play (optionally within one music folder): the ID3
 * browsing methods (Subsonic's, and the library's album view) list only artists, albums and songs
 * with a file behind them.
 */

/** Artists with a playable song, as album artist or track artist. */
export async function playableArtistIds(db: Database, userId: string, folderId?: number): Promise<string[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select(sql<string>`coalesce(al.artist_id, t.artist_id)`.as('artist_id'))
    .distinct()
    .where(sql<boolean>`coalesce(al.artist_id, t.artist_id) is not null`)
    .where(hasPlayableFile(sql.ref('t.id'), userId, folderId))
    .execute();
  return rows.map((row) => row.artist_id);
}

/** Whether the artist has a song the user can play (the test playableArtistIds applies to all). */
export async function artistIsPlayable(db: Database, userId: string, artistId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select('t.id')
    .where(sql<boolean>`coalesce(al.artist_id, t.artist_id) = ${artistId}`)
    .where(hasPlayableFile(sql.ref('t.id'), userId))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** An artist's albums with a playable song, by year then title. */
export async function artistAlbumIds(db: Database, userId: string, artistId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('albums as al')
    .select('al.id')
    .where('al.artist_id', '=', artistId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('tracks as t')
          .select('t.id')
          .whereRef('t.album_id', '=', 'al.id')
          .where(hasPlayableFile(sql.ref('t.id'), userId)),
      ),
    )
    .orderBy(sql`al.year nulls last`)
    .orderBy('al.title_key')
    .execute();
  return rows.map((row) => row.id);
}

/** An album's playable songs by disc and track number. */
export async function albumTrackIds(db: Database, userId: string, albumId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .select('t.id')
    .where('t.album_id', '=', albumId)
    .where(hasPlayableFile(sql.ref('t.id'), userId))
    .orderBy(sql`t.disc_number nulls first`)
    .orderBy(sql`t.track_number nulls last`)
    .orderBy('t.title_key')
    .execute();
  return rows.map((row) => row.id);
}

/** Whether the user can play this track. */
export async function isPlayable(db: Database, userId: string, trackId: string): Promise<boolean> {
  const row = await db.selectNoFrom(hasPlayableFile(sql.val(trackId), userId).as('playable')).executeTakeFirstOrThrow();
  return Boolean(row.playable);
}
