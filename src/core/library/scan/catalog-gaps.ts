/**
 * What the catalog learns from files once they are matched: songs and albums whose file has a
 * cover get an album-art URL served by the library (the cover route takes the track id, known
 * only after matching), and albums get the year their files carry, where the catalog has none.
 */
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { inTransaction } from '../../../toolkit/db/retry.ts';
import { inChunks } from './chunks.ts';

/** The library's cover URL of a track, with the track id appended in SQL. */
const coverUrlPrefix = (publicUrl: string) => `${publicUrl}/library/covers/`;

/** Fills tracks.album_art with `${publicUrl}/library/covers/<track id>` for the source's covered files. */
export async function fillTrackArt(db: Database, sourceId: number, publicUrl: string): Promise<void> {
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
  await inChunks(
    missing.map((row) => row.id),
    500,
    (chunk) =>
      inTransaction(db, async (tx) => {
        // Track rows are locked in id order, the order every catalog writer uses (catalog/resolve.ts).
        await tx.selectFrom('tracks').select('id').where('id', 'in', chunk).orderBy('id').forUpdate().execute();
        await tx
          .updateTable('tracks')
          .set({ album_art: sql<string>`${coverUrlPrefix(publicUrl)} || id::text` })
          .where('id', 'in', chunk)
          .where('album_art', 'is', null)
          .execute();
      }),
  );
}

/** Fills albums' missing year and album art from the source's files, in one statement. */
export async function fillAlbumGaps(db: Database, sourceId: number, publicUrl: string): Promise<void> {
  const perAlbum = db
    .selectFrom('library_files as f')
    .innerJoin('tracks as t', 't.id', 'f.track_id')
    .select((eb) => [
      't.album_id',
      eb.fn.max('f.year').as('year'),
      // Any one covered song's cover stands for the album; the smallest id keeps the choice stable.
      sql<string | null>`min(case when f.cover is not null then t.id::text end)`.as('cover_track'),
    ])
    .where('f.source_id', '=', sourceId)
    .where('t.album_id', 'is not', null)
    .groupBy('t.album_id');
  await db
    .updateTable('albums')
    .from(perAlbum.as('s'))
    .set((eb) => ({
      year: eb.fn.coalesce('albums.year', 's.year'),
      album_art: eb.fn.coalesce('albums.album_art', sql<string>`${coverUrlPrefix(publicUrl)} || s.cover_track`),
    }))
    .whereRef('albums.id', '=', 's.album_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('albums.year', 'is', null), eb('s.year', 'is not', null)]),
        eb.and([eb('albums.album_art', 'is', null), eb('s.cover_track', 'is not', null)]),
      ]),
    )
    .execute();
}
