/**
 * What the three media servers' webhook bodies have in common to read: loosely typed JSON, where a
 * number may arrive as a string (a Jellyfin template quotes what it likes), times in .NET ticks,
 * and a JSON document inside a form field when the server posts multipart.
 */
import { invalidRequest } from '../../toolkit/errors.ts';
import { mbidOrUndefined } from '../../core/catalog/track-metadata.ts';
import type { PlaybackEvent } from '../../core/scrobbling/playback-events.ts';

export type Json = Record<string, unknown>;

/** An event to apply, or why the webhook is answered without doing anything (a movie, a library scan). */
export type Reading = { event: PlaybackEvent } | { ignored: string };

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-blank string, trimmed; anything else is absent. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** A non-negative whole number, from a number or a numeric string. */
export function whole(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? Math.round(number) : undefined;
}

/** .NET ticks (100 ns) as milliseconds. */
export const ticksMs = (value: unknown): number | undefined => {
  const ticks = whole(value);
  return ticks === undefined ? undefined : Math.round(ticks / 10_000);
};

export const truth = (value: unknown): boolean => value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');

export function time(value: unknown): Date | undefined {
  const date = typeof value === 'string' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

export const mbid = mbidOrUndefined;

/** The fields of `body` named in `keys` that are present: what is kept with a play, not the server's whole report (addresses, device ids). */
export function picked(body: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.filter((key) => body[key] !== undefined && body[key] !== null).map((key) => [key, body[key]]));
}

/**
 * The webhook's JSON document: the body itself (application/json), or the JSON in one of
 * `fields` of a multipart form. Anything else is a malformed request (400).
 */
export function webhookDocument(body: unknown, fields: readonly string[]): Json {
  let document = body;
  if (body instanceof Map) {
    const field = fields.find((name) => body.has(name));
    if (!field) throw invalidRequest(`the form has no ${fields.join(' or ')} field`);
    try {
      document = JSON.parse(body.get(field) as string);
    } catch {
      throw invalidRequest(`the ${field} field is not JSON`);
    }
  }
  if (!isObject(document)) throw invalidRequest('the body must be a JSON object');
  return document;
}

/** The event is another user's of the media server than the one this webhook is for: `user` in the URL, when given. */
export const otherUser = (wanted: string | undefined, actual: string | undefined) =>
  wanted !== undefined && wanted.toLowerCase() !== (actual ?? '').toLowerCase();
