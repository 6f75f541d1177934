/**
 * The pictures enrichment keeps (album covers, artist pictures), read back to be served by Earshot.
 * The type served is told from the stored bytes, never a stored or declared type, and stored bytes
 * that are no allowed image (however they got there) are no picture.
 */
import type { Database } from '../../../toolkit/db/index.ts';
import { imageType, type ImageType } from '../../../toolkit/image-type.ts';
import { isUuid } from '../../../toolkit/uuid.ts';

/** Each table of kept pictures, and the column naming whose picture a row is. */
const OWNER_COLUMN = { album_covers: 'album_id', artist_images: 'artist_id' } as const;

/** The picture kept for `ownerId`, with the ETag the database stored beside it; null for an id that is no UUID, none kept, or bytes that are no image. */
export async function storedImage(
  db: Database,
  table: keyof typeof OWNER_COLUMN,
  ownerId: string,
): Promise<{ data: Buffer; contentType: ImageType; etag: string } | null> {
  if (!isUuid(ownerId)) return null;
  const row = await db.selectFrom(table).select(['data', 'etag']).where(OWNER_COLUMN[table], '=', ownerId.toLowerCase()).executeTakeFirst();
  const contentType = row ? imageType(row.data) : null;
  return row && contentType ? { data: row.data, contentType, etag: row.etag } : null;
}
