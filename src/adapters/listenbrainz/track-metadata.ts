import { invalidRequest } from '../../toolkit/errors.ts';
import { isrcOrUndefined, type TrackMetadata } from '../../core/catalog/track-metadata.ts';
import { longerThan, MAX_TAG_LENGTH, MAX_TAGS } from '../../core/catalog/field-rules.ts';
import { isJsonObject, withoutUndefined, type JsonObject } from '../../core/scrobbling/listen-json.ts';

/** ListenBrainz's limits on a listen's tags (api_tools.MAX_TAGS_PER_LISTEN, MAX_TAG_SIZE), which listen-rules adopts. */
const MAX_TAGS_PER_LISTEN = MAX_TAGS;
const MAX_TAG_SIZE = MAX_TAG_LENGTH;
/** Longest accepted duration, in seconds (api_tools.MAX_DURATION_LIMIT: 24 days). */
export const MAX_DURATION_LIMIT = 24 * 24 * 60 * 60;

const UUID = /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;
const SPOTIFY_TRACK = /^(?:https?:\/\/open\.spotify\.com\/track\/|spotify:track:)?([A-Za-z0-9]{22})(?:[/?#].*)?$/;
const LEADING_NUMBER = /^\s*(\d{1,9})/;

/** The canonical form of any spelling Python's uuid.UUID accepts, as ListenBrainz does; null if none. */
export function canonicalMbid(value: unknown): string | null {
  const parts = typeof value === 'string' ? UUID.exec(value.trim()) : null;
  return parts ? parts.slice(1).join('-').toLowerCase() : null;
}

function requiredName(metadata: JsonObject, key: 'track_name' | 'artist_name'): string {
  if (!(key in metadata)) throw invalidRequest(`JSON document does not contain required track_metadata.${key}.`);
  const value = metadata[key];
  if (typeof value !== 'string') throw invalidRequest(`track_metadata.${key} must be a single string.`);
  const trimmed = value.trim();
  if (!trimmed) throw invalidRequest(`required field track_metadata.${key} is empty.`);
  return trimmed;
}

function optionalString(container: JsonObject, key: string, path: string): string | undefined {
  const value = container[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${path}.${key} must be a string.`);
  return value.trim() || undefined;
}

/** Empty MBID fields are dropped, as ListenBrainz does; anything else must be a valid UUID. */
function singleMbid(info: JsonObject, key: string): string | undefined {
  const value = info[key];
  if (value === undefined || value === null || value === '') {
    delete info[key];
    return undefined;
  }
  const mbid = canonicalMbid(value);
  if (!mbid) throw invalidRequest(`${key} MBID format invalid.`);
  return mbid;
}

function mbidList(info: JsonObject, key: string): string[] {
  const value = info[key];
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
    delete info[key];
    return [];
  }
  if (!Array.isArray(value)) throw invalidRequest(`${key} MBID format invalid.`);
  const present = value.filter((item) => item !== null && item !== '');
  const mbids = present.map(canonicalMbid);
  if (mbids.some((mbid) => mbid === null)) throw invalidRequest(`${key} MBID format invalid.`);
  info[key] = present;
  return mbids as string[];
}

function tags(info: JsonObject): string[] | undefined {
  const value = info.tags;
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string')) {
    throw invalidRequest('track_metadata.additional_info.tags must be a list of strings.');
  }
  if (value.length > MAX_TAGS_PER_LISTEN) {
    throw invalidRequest(`JSON document may not contain more than ${MAX_TAGS_PER_LISTEN} items in track_metadata.additional_info.tags.`);
  }
  // Characters as Python's len() counts them: code points.
  if (value.some((tag: string) => longerThan(tag, MAX_TAG_SIZE))) {
    throw invalidRequest(`JSON document may not contain track_metadata.additional_info.tags longer than ${MAX_TAG_SIZE} characters.`);
  }
  const kept = value.map((tag: string) => tag.trim()).filter(Boolean);
  return kept.length > 0 ? kept : undefined;
}

function positiveInteger(info: JsonObject, key: string, limit: number): number | undefined {
  const value = info[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0 || number > limit) {
    throw invalidRequest(`Value for ${key} is invalid, should be a positive integer not greater than ${limit}.`);
  }
  return number;
}

/** Milliseconds from `duration_ms` or `duration` (seconds); a client may send one of them. */
function durationMs(info: JsonObject): number | undefined {
  if (info.duration !== undefined && info.duration_ms !== undefined) {
    throw invalidRequest('JSON document should not contain both duration and duration_ms.');
  }
  const seconds = positiveInteger(info, 'duration', MAX_DURATION_LIMIT);
  return seconds !== undefined ? seconds * 1000 : positiveInteger(info, 'duration_ms', MAX_DURATION_LIMIT * 1000);
}

/** "3", 3 and "3/12" all mean track 3; clients differ, ListenBrainz documents a string. */
function position(info: JsonObject, key: string): number | undefined {
  const value = info[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') throw invalidRequest(`track_metadata.additional_info.${key} must be a number or a string.`);
  const digits = LEADING_NUMBER.exec(value);
  return digits ? Number(digits[1]) : undefined;
}

function additionalInfo(info: JsonObject): Partial<TrackMetadata> {
  const path = 'track_metadata.additional_info';
  for (const key of ['release_group_mbid', 'track_mbid']) singleMbid(info, key);
  mbidList(info, 'work_mbids');
  const isrc = optionalString(info, 'isrc', path);
  const spotify = optionalString(info, 'spotify_id', path);
  return {
    mbid: singleMbid(info, 'recording_mbid'),
    albumMbid: singleMbid(info, 'release_mbid'),
    artistMbid: mbidList(info, 'artist_mbids')[0],
    albumArtist: optionalString(info, 'release_artist_name', path),
    durationMs: durationMs(info),
    trackNumber: position(info, 'tracknumber'),
    discNumber: position(info, 'discnumber'),
    isrc: isrcOrUndefined(isrc),
    spotifyId: spotify ? SPOTIFY_TRACK.exec(spotify)?.[1] : undefined,
    tags: tags(info),
  };
}

/**
 * Validates a listen's `track_metadata` the way ListenBrainz does and reads it
 * as Earshot track metadata. Normalizes the object in place (trimmed names,
 * empty MBIDs dropped) so what is stored verbatim is what was accepted.
 */
export function readTrackMetadata(value: unknown): TrackMetadata {
  if (value === undefined) throw invalidRequest('JSON document does not contain required track_metadata.');
  if (!isJsonObject(value)) throw invalidRequest('track_metadata must be a JSON object.');
  const artist = requiredName(value, 'artist_name');
  const title = requiredName(value, 'track_name');
  value.artist_name = artist;
  value.track_name = title;
  const album = optionalString(value, 'release_name', 'track_metadata');
  const info = value.additional_info;
  if (info !== undefined && info !== null && !isJsonObject(info)) {
    throw invalidRequest('track_metadata.additional_info must be a JSON object.');
  }
  return withoutUndefined({ artist, title, album, ...(info ? additionalInfo(info) : {}) });
}
