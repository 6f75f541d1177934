/**
 * Artist pictures from Deezer, kept in the database (artist_images) and served by Earshot at
 * /artist-images/<artist id>, the URL written into the artist's picture, so pages never hot-link
 * Deezer. The artist is the one whose name folds to the catalog's key for it (normalize.ts), never
 * a near match; only bytes that are an allowed image are stored.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { imageType } from '../../../toolkit/image-type.ts';
import type { DeezerClient } from '../../providers/types.ts';
import { artistKey } from '../normalize.ts';
import { fillMissing, isFillable } from './fill.ts';
import { storedImage } from './kept-images.ts';

export const artistImageUrl = (publicUrl: string, artistId: string) => `${publicUrl}/artist-images/${artistId}`;

/**
 * Fetches the artist's picture when it has none and no edit decided it, stores it and points the
 * artist at it; answers how many rows it filled, or null when Deezer has no picture of the artist.
 */
export async function fetchArtistImage(db: Database, deezer: DeezerClient, publicUrl: string, artistId: string, name: string): Promise<number | null> {
  if (!(await isFillable(db, 'artists', artistId, 'picture'))) return 0;
  const image = await deezer.artistImage(name, artistKey);
  const contentType = image ? imageType(image.data) : null;
  if (!image || !contentType) return null;
  const row = { content_type: contentType, data: image.data, deezer_id: image.deezerId };
  await db
    .insertInto('artist_images')
    .values({ artist_id: artistId, ...row })
    .onConflict((conflict) => conflict.column('artist_id').doUpdateSet({ ...row, created_at: sql<Date>`now()` }))
    .execute();
  return fillMissing(db, 'artists', sql`t.id = ${artistId}`, 'picture', artistImageUrl(publicUrl, artistId));
}

/** The stored picture of an artist, served at /artist-images/<artist id> without credentials (artist pages are public). */
export const storedArtistImage = (db: Database, artistId: string) => storedImage(db, 'artist_images', artistId);
