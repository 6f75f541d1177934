/**
 * A play as a listen in ListenBrainz's JSON shape: what the ListenBrainz API answers
 * (adapters/listenbrainz) and what export files hold (core/export), one shape for both, so an
 * export imports into Earshot or ListenBrainz again. Here in the core because the export is a
 * core feature; the ListenBrainz adapter builds its answers on it.
 */
import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object without its undefined fields, so JSON and deep equality see only the present ones. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** Unix seconds, as ListenBrainz gives times. */
export const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A user's plays joined with their songs: what a ListenBrainz listen is made of (listenOf). */
export function playsQuery(db: Database, userId: string) {
  return catalogTrackQuery(db)
    .innerJoin('scrobbles as s', 's.track_id', 't.id')
    .select(['s.id', 's.listened_at', 's.created_at', 's.submitted', 's.edited_at'])
    .where('s.user_id', '=', userId);
}

export type PlayRow = Awaited<ReturnType<ReturnType<typeof playsQuery>['executeTakeFirstOrThrow']>>;

/** A play as ListenBrainz shapes a listen (its reads and its export files alike). */
export function listenOf(row: PlayRow, handle: string) {
  return {
    listened_at: toSeconds(row.listened_at),
    inserted_at: toSeconds(row.created_at),
    recording_msid: row.track_id,
    user_name: handle,
    // A corrected play shows its song, not what the client first sent.
    track_metadata: trackMetadata(row, row.edited_at ? null : row.submitted),
  };
}

export function catalogTrackQuery(db: Database) {
  return db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .select([
      't.id as track_id',
      't.artist',
      't.title',
      sql<string | null>`coalesce(t.album, al.title)`.as('album'),
      sql<string | null>`coalesce(t.album_artist, al.artist)`.as('album_artist'),
      't.duration',
      't.track_number',
      't.disc_number',
      't.mbid',
      'al.mbid as album_mbid',
      'ar.mbid as artist_mbid',
      't.isrc',
      't.streaming_link_a',
      't.tags',
    ]);
}

type CatalogRow = Awaited<ReturnType<ReturnType<typeof catalogTrackQuery>['executeTakeFirstOrThrow']>>;

/**
 * What ListenBrainz would answer for a listen's track: the client's own
 * track_metadata when it came through ListenBrainz (and was not corrected
 * since, so it still names the play's song), else the catalog's. The
 * catalog track id stands in for MessyBrainz's recording_msid.
 */
export function trackMetadata(row: CatalogRow, submitted: unknown): JsonObject {
  const own = isJsonObject(submitted) && isJsonObject(submitted.track_metadata) ? submitted.track_metadata : null;
  const metadata =
    own ??
    trackMetadataFromCatalog({
      artist: row.artist,
      title: row.title,
      album: row.album,
      albumArtist: row.album_artist,
      durationMs: row.duration,
      trackNumber: row.track_number,
      discNumber: row.disc_number,
      mbid: row.mbid,
      albumMbid: row.album_mbid,
      artistMbid: row.artist_mbid,
      isrc: row.isrc,
      spotifyUrl: row.streaming_link_a?.startsWith('https://open.spotify.com/') ? row.streaming_link_a : null,
      tags: row.tags,
    });
  const info = isJsonObject(metadata.additional_info) ? metadata.additional_info : {};
  return { ...metadata, additional_info: { ...info, recording_msid: row.track_id } };
}

/** The catalog's description of each track in ListenBrainz's track_metadata, by track id. */
export async function catalogTrackMetadata(db: Database, trackIds: readonly string[]): Promise<Map<string, JsonObject>> {
  if (trackIds.length === 0) return new Map();
  const rows = await catalogTrackQuery(db)
    .where('t.id', 'in', [...trackIds])
    .execute();
  return new Map(rows.map((row) => [row.track_id, trackMetadata(row, null)]));
}

/** A catalog track as Earshot knows it, for answering in ListenBrainz's shape. */
export interface CatalogTrack {
  artist: string;
  title: string;
  album: string | null;
  albumArtist: string | null;
  durationMs: number | null;
  trackNumber: number | null;
  discNumber: number | null;
  mbid: string | null;
  albumMbid: string | null;
  artistMbid: string | null;
  isrc: string | null;
  spotifyUrl: string | null;
  tags: string[];
}

/** ListenBrainz `track_metadata` for a catalog track, for listens that did not arrive through ListenBrainz. */
export function trackMetadataFromCatalog(track: CatalogTrack): JsonObject {
  const info = withoutUndefined({
    recording_mbid: track.mbid ?? undefined,
    release_mbid: track.albumMbid ?? undefined,
    artist_mbids: track.artistMbid ? [track.artistMbid] : undefined,
    release_artist_name: track.albumArtist ?? undefined,
    duration_ms: track.durationMs ?? undefined,
    tracknumber: track.trackNumber ?? undefined,
    discnumber: track.discNumber ?? undefined,
    isrc: track.isrc ?? undefined,
    spotify_id: track.spotifyUrl ?? undefined,
    tags: track.tags.length > 0 ? track.tags : undefined,
  });
  return withoutUndefined({ artist_name: track.artist, track_name: track.title, release_name: track.album ?? undefined, additional_info: info });
}
