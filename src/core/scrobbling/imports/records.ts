import { listenProblem } from '../listen-rules.ts';
import { MAX_DURATION_MS, MAX_INT4, MAX_TAG_LENGTH, MAX_TAGS } from '../../catalog/field-rules.ts';
import type { ImportListen } from './schemas.ts';

/** What one record of an export file turned into: a listen, or why it was skipped. */
export type ImportRecord = { listen: ImportListen } | { ignored: string };

/** A record that is not of the expected format at all (as opposed to a bad record of that format). */
export type ForeignRecord = { foreign: string };

/** A record not even parsed (too large, too deep): ignored, but no evidence either way of the file's format. */
export type UnreadRecord = { unread: string };

/** The file cannot be read as the chosen format; names the record (1-based) where that showed. */
export class ImportFormatError extends Error {
  constructor(
    readonly record: number,
    readonly problem: string,
  ) {
    super(`record ${record}: ${problem}`);
  }
}

const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;

/** A non-blank string, trimmed; anything else is absent. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** The id from a bare id, a `spotify:track:` URI or an open.spotify.com URL. */
export function spotifyId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value
    .trim()
    .split(/[:/?]/)
    .filter(Boolean)
    .find((part) => SPOTIFY_ID.test(part));
  return id;
}

/**
 * The non-blank strings of a list, trimmed, within the listen rules' tag limits;
 * absent if none. Tags are extras: ones out of bounds are dropped, not a reason
 * to lose the listen (the record keeps them anyway).
 */
export function tagList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tags = value.flatMap((tag) => (typeof tag === 'string' && tag.trim() && tag.trim().length <= MAX_TAG_LENGTH ? [tag.trim()] : []));
  return tags.length > 0 ? tags.slice(0, MAX_TAGS) : undefined;
}

/** A non-negative integer (numbers or numeric strings) that fits the database's int4, else absent. */
export function count(value: unknown, max = MAX_INT4): number | undefined {
  const number = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 && number <= max ? number : undefined;
}

/** A track length within the listen rules, from milliseconds or seconds; a bad one is dropped like any other odd extra. */
export function durationMs(ms: unknown, seconds?: unknown): number | undefined {
  const fromSeconds = count(seconds, MAX_DURATION_MS / 1000);
  return count(ms, MAX_DURATION_MS) ?? (fromSeconds === undefined ? undefined : fromSeconds * 1000);
}

/** Most a play may have lasted, in seconds: listen-rules' limit on a played time. */
const MAX_PLAYED_SECONDS = MAX_DURATION_MS / 1000;

/**
 * A played time given in seconds (whole or fractional; a number or a numeric string) as ms, or
 * undefined. An odd value is passed over, not refused: the protocols that carry one (ListenBrainz's
 * additional_info, Maloja's `duration`) leave it to the client, and the listen stands without it.
 */
export function playedSecondsMs(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && value.trim() ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_PLAYED_SECONDS) return undefined;
  return Math.round(seconds * 1000);
}

/** How long a ListenBrainz listen was played: `additional_info.duration_played` (seconds); not `duration_ms` nor `duration`, the track's length. */
export const durationPlayedMs = (info: Record<string, unknown>) => playedSecondsMs(info.duration_played);

/** Drops absent optional fields so the listen serializes compactly. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/**
 * A listen, or the reason it has none: artist, title or time missing, or the
 * listen rules refuse it. Checked here, before sending, so the server never
 * sees a record it would refuse; it checks again all the same.
 */
export function listenRecord(listen: Partial<ImportListen> & Pick<ImportListen, 'submitted'>, listenedAt: Date | undefined): ImportRecord {
  if (!listen.artist) return { ignored: 'no artist' };
  if (!listen.title) return { ignored: 'no track title' };
  if (!listenedAt || Number.isNaN(listenedAt.getTime())) return { ignored: 'no valid listen time' };
  const problem = listenProblem({ ...listen, artist: listen.artist, title: listen.title, listenedAt });
  if (problem) return { ignored: problem };
  return { listen: compact({ ...listen, artist: listen.artist, title: listen.title, listenedAt: listenedAt.toISOString() }) };
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
