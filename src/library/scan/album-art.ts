/**
 * Songs whose file has a cover get an album-art URL served by the library (the cover route takes
 * the track id, known only once the file was matched), where the catalog has none yet.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { inTransaction } from '../../db/retry.ts';
import { inChunks } from './chunks.ts';

/** Fills tracks.album_art with `${publicUrl}/library/covers/<track id>` for the source's covered files; returns how many it set. */
export async function fillAlbumArt(db: Database, sourceId: number, publicUrl: string): Promise<number> {
  const missing = await db
    .selectFrom('tracks')
    .select('tracks.id')
    .where('tracks.album_art', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('library_files as f')
          .select(sql.lit(1).as('one'))
          .whereRef('f.track_id', '=', 'tracks.id')
          .where('f.source_id', '=', sourceId)
          .where('f.cover', 'is not', null),
      ),
    )
    .orderBy('tracks.id')
    .execute();
  const ids = missing.map((row) => row.id);
  await inChunks(ids, 500, (chunk) =>
    inTransaction(db, async (tx) => {
      // Track rows are locked in id order, the order every catalog writer uses (catalog/resolve.ts).
      await tx.selectFrom('tracks').select('id').where('id', 'in', chunk).orderBy('id').forUpdate().execute();
      await tx
        .updateTable('tracks')
        .set({ album_art: sql<string>`${`${publicUrl}/library/covers/`} || id::text` })
        .where('id', 'in', chunk)
        .where('album_art', 'is', null)
        .execute();
    }),
  );
  return ids.length;
}
