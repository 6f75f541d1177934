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
  type Params,
} from '../lastfm/index.ts';

/** The protocol's limit per submission request. */
export const MAX_SUBMISSIONS = 50;

/** P chosen by the user, R broadcast, E recommendation, U unknown, L Last.fm (followed by a key). */
const SOURCE = /^[PREUL]/;
/** L love, B ban, S skip, or nothing. */
const RATING = /^[LBS]?$/;

function nonBlank(fields: Params, name: string, suffix: string): string {
  const value = requiredParam(fields, name, suffix);
  if (!value.trim()) throw new InvalidParameter(`${name}${suffix} must not be empty`);
  return value;
}

type SubmittedTrack = TrackMetadata & { submitted: Record<string, string> };

/**
 * a, t, b, l, n, m: what now-playing and submissions both say about a track, with the fields
 * `names` kept as sent. A track no path may store fails the request (400).
 */
function trackFields(fields: Params, names: readonly string[], suffix = ''): SubmittedTrack {
  const seconds = optionalCount(fields, 'l', suffix, MAX_DURATION_SECONDS);
  const metadata = {
    artist: nonBlank(fields, 'a', suffix),
    title: nonBlank(fields, 't', suffix),
    album: optionalText(fields, 'b'),
    durationMs: seconds === undefined ? undefined : seconds * 1000,
    trackNumber: optionalCount(fields, 'n', suffix),
    mbid: musicBrainzId(fields, 'm'),
  };
  const submitted = Object.fromEntries(names.flatMap((name) => (fields.has(name) ? [[name, fields.get(name)!]] : [])));
  requireStorable(metadata, submitted, suffix);
  return { ...metadata, submitted };
}

export function parseNowPlaying(params: Params): SubmittedTrack {
  return trackFields(params, ['a', 't', 'b', 'l', 'n', 'm']);
}

export interface Submission {
  listen: Listen;
  /** Rated L: the user loved the track. */
  loved: boolean;
  /** Rated B or S: skipped, so not a listen at all. */
  skipped: boolean;
}

/** Every submission of a request, or an InvalidParameter for the first malformed one. */
export function parseSubmissions(params: Params): Submission[] {
  const groups = indexedGroups(params);
  if (groups.length > MAX_SUBMISSIONS) throw new InvalidParameter(`at most ${MAX_SUBMISSIONS} submissions per request`);
  return groups.map(({ index, fields }) => {
    const suffix = `[${index}]`;
    const track = trackFields(fields, ['a', 't', 'i', 'o', 'r', 'l', 'b', 'n', 'm'], suffix);
    const time = requiredParam(fields, 'i', suffix).trim();
    if (!/^\d{1,11}$/.test(time)) throw new InvalidParameter(`i${suffix} must be a UNIX timestamp`);
    if (!SOURCE.test(requiredParam(fields, 'o', suffix))) throw new InvalidParameter(`o${suffix} must be one of P, R, E, U, L`);
    const rating = (fields.get('r') ?? '').trim();
    if (!RATING.test(rating)) throw new InvalidParameter(`r${suffix} must be L, B, S or empty`);
    return {
      listen: { ...track, listenedAt: new Date(Number(time) * 1000) },
      loved: rating === 'L',
      skipped: rating === 'B' || rating === 'S',
    };
  });
}
