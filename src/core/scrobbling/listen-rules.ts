import { findInJson } from '../../toolkit/json-walk.ts';
import { ISRC, MBID, SPOTIFY_ID, type TrackMetadata } from '../catalog/track-metadata.ts';
import {
  MAX_NAME_LENGTH,
  MAX_SHORT_TEXT_LENGTH,
  MAX_GENRE_LENGTH,
  MAX_TAGS,
  MAX_TAG_LENGTH,
  MAX_INT4,
  MAX_DURATION_MS,
  textProblem,
  textFieldProblem,
  patternProblem,
  integerProblem,
} from '../catalog/field-rules.ts';

/**
 * The one set of rules every submitted listen meets before it reaches the
 * database, whatever protocol or import format it came through. A protocol
 * turns a problem into its own error shape (a 400-class answer, never a
 * retryable 5xx); ingest and imports turn it into an ignored listen.
 */

/** The earliest listen time any path accepts: the Unix epoch (PostgreSQL and PGlite agree from there on). */
export const MIN_LISTENED_AT_MS = 0;
/** How far ahead of the server clock a listen time may be (clients' clocks drift). */
export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;
/** The record a client sent, kept verbatim as jsonb: bounded in size and depth. */
export const MAX_SUBMITTED_BYTES = 64 * 1024;
export const MAX_SUBMITTED_DEPTH = 32;

/**
 * The UTF-8 size of text in bytes, as Buffer.byteLength counts it (a lone surrogate is the
 * 3 bytes of U+FFFD), without Buffer: the import readers built on these rules also run in the
 * web app, which parses export files in the browser.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code <= 0xdbff && code >= 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two units are already counted: 4 bytes in all
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Why this track metadata cannot be stored, or null when it can. */
export function metadataProblem(metadata: TrackMetadata): string | null {
  return (
    textFieldProblem('artist', metadata.artist, MAX_NAME_LENGTH, true) ??
    textFieldProblem('title', metadata.title, MAX_NAME_LENGTH, true) ??
    textFieldProblem('album', metadata.album, MAX_NAME_LENGTH) ??
    textFieldProblem('album artist', metadata.albumArtist, MAX_NAME_LENGTH) ??
    textFieldProblem('genre', metadata.genre, MAX_GENRE_LENGTH) ??
    textFieldProblem('album art', metadata.albumArt, MAX_SHORT_TEXT_LENGTH) ??
    patternProblem('recording MBID', metadata.mbid, MBID, 'a UUID') ??
    patternProblem('artist MBID', metadata.artistMbid, MBID, 'a UUID') ??
    patternProblem('release MBID', metadata.albumMbid, MBID, 'a UUID') ??
    patternProblem('ISRC', metadata.isrc, ISRC, 'an ISRC (CC-XXX-YY-NNNNN without dashes)') ??
    patternProblem('spotify id', metadata.spotifyId, SPOTIFY_ID, '22 letters and digits') ??
    tagsProblem(metadata.tags) ??
    integerProblem('duration', metadata.durationMs, 0, MAX_DURATION_MS) ??
    integerProblem('track number', metadata.trackNumber, 0, MAX_INT4) ??
    integerProblem('disc number', metadata.discNumber, 0, MAX_INT4)
  );
}

function tagsProblem(tags: readonly string[] | undefined): string | null {
  if (tags === undefined) return null;
  if (tags.length > MAX_TAGS) return `more than ${MAX_TAGS} tags`;
  for (const tag of tags) {
    const problem = textFieldProblem('a tag', tag, MAX_TAG_LENGTH);
    if (problem) return problem;
  }
  return null;
}

/** Why a listen time cannot be stored: outside 1970 … now + 1 day, or not a time at all. */
export function listenedAtProblem(listenedAt: Date, now: number = Date.now()): string | null {
  const ms = listenedAt.getTime();
  if (Number.isNaN(ms)) return 'listen time is invalid';
  if (ms < MIN_LISTENED_AT_MS) return 'listen time is before 1970';
  if (ms > now + MAX_FUTURE_MS) return 'listen time is more than a day in the future';
  return null;
}

/**
 * Why the client's own record cannot be kept as jsonb: too large, too deep, or
 * holding text PostgreSQL refuses (in keys or values). Iterative, so any depth
 * is safe to inspect.
 */
export function submittedProblem(submitted: unknown): string | null {
  let bytes = 0;
  return findInJson(submitted, (value, depth) => {
    if (depth > MAX_SUBMITTED_DEPTH) return `record is nested deeper than ${MAX_SUBMITTED_DEPTH} levels`;
    if (typeof value === 'string') {
      bytes += utf8Length(value);
      const problem = textProblem(value);
      if (problem) return `record ${problem}`;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'record holds a number JSON cannot represent';
      bytes += 8;
    }
    return bytes > MAX_SUBMITTED_BYTES ? `record is larger than ${MAX_SUBMITTED_BYTES} bytes` : null;
  });
}

/**
 * Why what a client sent about a track (its metadata and its own record)
 * cannot be stored, whenever it was played: the check for now-playing and
 * love, and for protocols that judge listen times by rules of their own.
 */
export function submissionProblem(submission: TrackMetadata & { submitted?: unknown }): string | null {
  return metadataProblem(submission) ?? submittedProblem(submission.submitted ?? {});
}

/** Why a listen cannot be stored, or null when it can: the rule ingest applies to every path. */
export function listenProblem(
  listen: TrackMetadata & { listenedAt: Date; playedMs?: number | undefined; submitted?: unknown },
  now: number = Date.now(),
): string | null {
  return (
    metadataProblem(listen) ??
    integerProblem('played time', listen.playedMs, 0, MAX_DURATION_MS) ??
    listenedAtProblem(listen.listenedAt, now) ??
    submittedProblem(listen.submitted ?? {})
  );
}

/** A play this long always counts, whatever the track's length (Last.fm's rule, which scrobblers follow). */
export const ALWAYS_COUNTS_MS = 4 * 60 * 1000;
/** Tracks this short or shorter never count. */
export const MIN_TRACK_MS = 30 * 1000;

/**
 * The scrobble rule, for sources that report a play's start and end rather than a scrobble (media
 * servers): a play counts once it has lasted half the track or 4 minutes, whichever comes first,
 * unless the track is 30 seconds or shorter. Without a known length, only the 4 minutes count.
 */
export function playCounts(playedMs: number, durationMs: number | undefined): boolean {
  if (durationMs !== undefined && durationMs <= MIN_TRACK_MS) return false;
  return playedMs >= ALWAYS_COUNTS_MS || (durationMs !== undefined && playedMs * 2 >= durationMs);
}
