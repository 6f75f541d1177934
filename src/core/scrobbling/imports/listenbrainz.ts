import { isrcOrUndefined, mbidOrUndefined } from '../../catalog/track-metadata.ts';
import { count, durationMs, durationPlayedMs, isObject, listenRecord, spotifyId, tagList, text, type ForeignRecord, type ImportRecord } from './records.ts';

/** LB writes unix seconds; some tools write ISO 8601 strings. */
function listenTime(value: unknown): Date | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) return new Date(Number(value) * 1000);
  return typeof value === 'string' ? new Date(value) : undefined;
}

/**
 * The listen's time: Earshot's own export adds the exact time (`listened_at_iso`, with
 * milliseconds) beside LB's whole seconds, and it wins when it falls in the same second, so a
 * round trip keeps times exact and two plays of a song within one second apart. One that
 * disagrees (a tool changed listened_at alone) is ignored.
 */
function exactListenTime(listenedAt: unknown, iso: unknown): Date | undefined {
  const seconds = listenTime(listenedAt);
  const exact = typeof iso === 'string' ? new Date(iso) : undefined;
  const sameSecond = seconds && exact && Math.floor(exact.getTime() / 1000) * 1000 === seconds.getTime();
  return sameSecond ? exact : seconds;
}

function firstUuid(value: unknown): string | undefined {
  return Array.isArray(value) ? value.map(mbidOrUndefined).find(Boolean) : undefined;
}

/** One listen of a ListenBrainz export (`listened_at`, `track_metadata` with `additional_info` and `mbid_mapping`). */
export function listenBrainzRecord(value: unknown): ImportRecord | ForeignRecord {
  if (!isObject(value)) return { foreign: 'a record is not a JSON object' };
  if (!('listened_at' in value) && !('track_metadata' in value)) return { foreign: 'a record has neither listened_at nor track_metadata' };
  const metadata = isObject(value.track_metadata) ? value.track_metadata : {};
  const info = isObject(metadata.additional_info) ? metadata.additional_info : {};
  const mapping = isObject(metadata.mbid_mapping) ? metadata.mbid_mapping : {};
  return listenRecord(
    {
      artist: text(metadata.artist_name),
      title: text(metadata.track_name),
      album: text(metadata.release_name),
      albumArtist: text(info.release_artist_name),
      durationMs: durationMs(info.duration_ms, info.duration),
      playedMs: durationPlayedMs(info),
      trackNumber: count(info.tracknumber),
      discNumber: count(info.discnumber),
      mbid: mbidOrUndefined(info.recording_mbid) ?? mbidOrUndefined(mapping.recording_mbid),
      artistMbid: firstUuid(info.artist_mbids) ?? firstUuid(mapping.artist_mbids),
      albumMbid: mbidOrUndefined(info.release_mbid) ?? mbidOrUndefined(mapping.release_mbid),
      isrc: isrcOrUndefined(info.isrc),
      spotifyId: spotifyId(info.spotify_id),
      tags: tagList(info.tags),
      submitted: value,
    },
    exactListenTime(value.listened_at, info.listened_at_iso),
  );
}
