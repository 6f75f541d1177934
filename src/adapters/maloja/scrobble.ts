import { listenProblem } from '../../core/scrobbling/listen-rules.ts';
import type { Listen } from '../../core/scrobbling/ingest.ts';
import { malojaArtistCredit } from '../../core/scrobbling/imports/maloja.ts';
import { playedSecondsMs } from '../../core/scrobbling/imports/records.ts';
import { invalidScrobbleData, missingScrobbleData } from './errors.ts';
import type { Fields } from './fields.ts';

/**
 * The fields of Maloja's newscrobble. `duration` (seconds listened) is the play's played time;
 * `nofix` (skip Maloja's own title parsing) means nothing here. Both stay in the stored record.
 */
const KNOWN_FIELDS = new Set(['artist', 'artists', 'title', 'album', 'albumartists', 'duration', 'length', 'time', 'nofix', 'key', 'apikey']);
const CREDENTIAL_FIELDS = ['key', 'apikey'];

/** A warning Maloja adds to a scrobble it stored anyway. */
export interface MalojaWarning {
  type: 'invalid_keyword_ignored' | 'mixed_schema';
  value: unknown;
  desc: string;
}

export interface MalojaScrobble {
  /** The track's artists as sent, for the answer. */
  artists: string[];
  listen: Listen;
  warnings: MalojaWarning[];
}

/** A name or a list of names (JSON list or repeated form field), trimmed, blanks dropped. */
function names(fields: Fields, name: string): string[] {
  const value = fields.get(name);
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.some((item) => typeof item !== 'string')) throw invalidScrobbleData(`${name} must be a name or a list of names`);
  return (list as string[]).map((item) => item.trim()).filter(Boolean);
}

function optionalText(fields: Fields, name: string): string | undefined {
  const value = fields.get(name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidScrobbleData(`${name} must be text`);
  return value.trim() || undefined;
}

/**
 * Whole seconds from a JSON number or a numeric string; a fraction is cut off, as Maloja's
 * int() does to a number (multi-scrobbler sends the seconds listened with decimals).
 */
function optionalSeconds(fields: Fields, name: string): number | undefined {
  const value = fields.get(name);
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw invalidScrobbleData(`${name} must be a number of seconds`);
  return Math.trunc(number);
}

function warningsFor(fields: Fields): MalojaWarning[] {
  const warnings: MalojaWarning[] = [...fields.keys()]
    .filter((name) => !KNOWN_FIELDS.has(name))
    .map((name) => ({ type: 'invalid_keyword_ignored', value: name, desc: 'This key was not recognized by the server and has been discarded.' }));
  if (fields.has('artist') && fields.has('artists')) {
    warnings.push({ type: 'mixed_schema', value: ['artist', 'artists'], desc: 'These two fields are alternatives; both were read.' });
  }
  return warnings;
}

/** The client's record as stored beside the play: everything it sent but its key. */
function submittedRecord(fields: Fields): Record<string, unknown> {
  return Object.fromEntries([...fields].filter(([name]) => !CREDENTIAL_FIELDS.includes(name)));
}

/**
 * A newscrobble request as a listen: the artists of `artist` and `artists` credited together (as
 * a Maloja import credits them), `length` as the track's duration, `time` in Unix seconds
 * (now when absent). Refused, in Maloja's words, when it lacks artists or title or breaks the
 * listen rules.
 */
export function parseScrobble(fields: Fields, now: number = Date.now()): MalojaScrobble {
  const artists = [...new Set([...names(fields, 'artist'), ...names(fields, 'artists')])];
  const title = optionalText(fields, 'title');
  const missing = [...(artists.length === 0 ? ['track_artists'] : []), ...(title === undefined ? ['track_title'] : [])];
  if (missing.length > 0) throw missingScrobbleData(missing);
  const albumArtists = names(fields, 'albumartists');
  const length = optionalSeconds(fields, 'length');
  const time = optionalSeconds(fields, 'time') ?? Math.floor(now / 1000);
  const listen: Listen = {
    artist: malojaArtistCredit(artists),
    title: title!,
    album: optionalText(fields, 'album'),
    albumArtist: albumArtists.length > 0 ? malojaArtistCredit(albumArtists) : undefined,
    durationMs: length === undefined ? undefined : length * 1000,
    playedMs: playedSecondsMs(fields.get('duration')),
    listenedAt: new Date(time * 1000),
    submitted: submittedRecord(fields),
  };
  const problem = listenProblem(listen, now);
  if (problem) throw invalidScrobbleData(problem);
  return { artists, listen, warnings: warningsFor(fields) };
}
