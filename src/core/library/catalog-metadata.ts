/** A song of the catalog described as a listen describes it, so matching it finds that same song (library plays, playback sessions). */
import type { Database } from '../../toolkit/db/index.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';

const opt = <T>(value: T | null): T | undefined => value ?? undefined;

/** The catalog's metadata of each song, in the order of `trackIds` (which must exist). */
export async function catalogMetadata(db: Database, trackIds: readonly string[]): Promise<TrackMetadata[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select([
      't.id',
      't.title',
      't.artist',
      't.album',
      't.album_artist',
      't.duration',
      't.track_number',
      't.disc_number',
      't.mbid',
      't.isrc',
      'ar.mbid as artist_mbid',
      'al.mbid as album_mbid',
    ])
    .where('t.id', 'in', [...new Set(trackIds)])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return trackIds.map((id) => {
    const row = byId.get(id)!;
    return {
      artist: row.artist,
      title: row.title,
      album: opt(row.album),
      albumArtist: opt(row.album_artist),
      durationMs: opt(row.duration),
      trackNumber: opt(row.track_number),
      discNumber: opt(row.disc_number),
      mbid: opt(row.mbid),
      artistMbid: opt(row.artist_mbid),
      albumMbid: opt(row.album_mbid),
      isrc: opt(row.isrc),
    };
  });
}
