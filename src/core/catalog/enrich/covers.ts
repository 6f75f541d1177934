/**
 * Album covers from the Cover Art Archive, kept in the database (album_covers: every process and
 * both backends see them) and served by Earshot at /covers/<album id>, the URL written into the
 * album's and its songs' album art, so pages never hot-link the archive. Only bytes that are an
 * allowed image are stored, and the type served is told from the stored bytes, never the type the
 * archive (or whatever answered in its place) declared.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { imageType } from '../../../toolkit/image-type.ts';
import type { CoverArtClient } from '../../providers/types.ts';
import { fillMissing, isFillable } from './fill.ts';
import { storedImage } from './kept-images.ts';

export const albumCoverUrl = (publicUrl: string, albumId: string) => `${publicUrl}/covers/${albumId}`;

/**
 * Fetches the release's front cover for the album when its art is missing and no edit decided it,
 * stores it, and points the album and its songs without art at it; answers how many rows it filled.
 */
export async function fetchAlbumCover(db: Database, coverart: CoverArtClient, publicUrl: string, albumId: string, releaseMbid: string): Promise<number> {
  if (!(await isFillable(db, 'albums', albumId, 'album_art'))) return 0;
  const cover = await coverart.frontCover(releaseMbid);
  const contentType = cover ? imageType(cover.data) : null;
  if (!cover || !contentType) return 0;
  const row = { content_type: contentType, data: cover.data, release_mbid: releaseMbid };
  await db
    .insertInto('album_covers')
    .values({ album_id: albumId, ...row })
    .onConflict((conflict) => conflict.column('album_id').doUpdateSet({ ...row, created_at: sql<Date>`now()` }))
    .execute();
  const url = albumCoverUrl(publicUrl, albumId);
  return (
    (await fillMissing(db, 'albums', sql`t.id = ${albumId}`, 'album_art', url)) +
    (await fillMissing(db, 'tracks', sql`t.album_id = ${albumId}`, 'album_art', url))
  );
}

/** The stored cover of an album, served at /covers/<album id> without credentials (album art is public). */
export const storedAlbumCover = (db: Database, albumId: string) => storedImage(db, 'album_covers', albumId);
