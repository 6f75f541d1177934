import type { TrackMetadata } from '../../core/catalog/track-metadata.ts';
import type { Listen } from '../../core/scrobbling/ingest.ts';
import {
  indexedGroups,
  InvalidParameter,
  MAX_DURATION_SECONDS,
  musicBrainzId,
  optionalCount,
  optionalText,
  requiredParam,
  requireStorable,
  unixSeconds,
  type Params,
} from './params.ts';

/** Last.fm's limit for one track.scrobble call. */
export const MAX_SCROBBLES_PER_REQUEST = 50;

/** The track parameters kept as the listen's submitted payload (never credentials such as sk). */
const TRACK_FIELDS = ['artist', 'track', 'album', 'albumArtist', 'trackNumber', 'mbid', 'duration', 'timestamp', 'chosenByUser', 'context', 'streamId'];

export function submittedFields(fields: Params): Record<string, string> {
  return Object.fromEntries(TRACK_FIELDS.flatMap((name) => (fields.has(name) ? [[name, fields.get(name)!]] : [])));
}

/**
 * The track a call names (every track.* method reads it here); `suffix` is the batch index
 * (`[3]`) used in error messages. A track no path may store fails the call with error 6.
 */
export function trackMetadata(fields: Params, suffix = ''): TrackMetadata {
  const duration = optionalCount(fields, 'duration', suffix, MAX_DURATION_SECONDS);
  const metadata = {
    artist: requiredParam(fields, 'artist', suffix),
    title: requiredParam(fields, 'track', suffix),
    album: optionalText(fields, 'album'),
    albumArtist: optionalText(fields, 'albumArtist'),
    trackNumber: optionalCount(fields, 'trackNumber', suffix),
    durationMs: duration === undefined ? undefined : duration * 1000,
    mbid: musicBrainzId(fields, 'mbid'),
  };
  // Blank names are not refused: Last.fm answers them per scrobble (ignoredMessage 1 and 2).
  if (metadata.artist.trim() && metadata.title.trim()) requireStorable(metadata, submittedFields(fields), suffix);
  return metadata;
}

export interface ScrobbleRequest {
  listen: Listen;
  /** As sent, echoed back in the response. */
  timestamp: string;
}

/**
 * The scrobbles of a track.scrobble call: `artist[i]`, `track[i]`, `timestamp[i]`… or,
 * as some clients send a single one, the same names without an index. Any malformed
 * scrobble fails the whole call, so nothing is half-stored.
 */
export function parseScrobbles(params: Params): ScrobbleRequest[] {
  const indexed = indexedGroups(params);
  const groups = indexed.length > 0 ? indexed.map(({ index, fields }) => ({ suffix: `[${index}]`, fields })) : [{ suffix: '', fields: params }];
  if (groups.length > MAX_SCROBBLES_PER_REQUEST) throw new InvalidParameter(`at most ${MAX_SCROBBLES_PER_REQUEST} scrobbles per request`);
  return groups.map(({ suffix, fields }) => {
    const metadata = trackMetadata(fields, suffix);
    const { text: timestamp, seconds } = unixSeconds(fields, 'timestamp', suffix);
    return { timestamp, listen: { ...metadata, listenedAt: new Date(seconds * 1000), submitted: submittedFields(fields) } };
  });
}
