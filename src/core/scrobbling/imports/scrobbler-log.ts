import { mbidOrUndefined } from '../../catalog/track-metadata.ts';
import { MAX_RECORD_BYTES } from './json-stream.ts';
import { count, durationMs, listenRecord, text, type ForeignRecord, type ImportRecord, type UnreadRecord } from './records.ts';

/** The lines of a text stream (LF or CRLF); a line past MAX_RECORD_BYTES comes back as null, not held. */
async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string | null> {
  let parts: string[] = [];
  let bytes = 0;
  const take = () => {
    const line = bytes > MAX_RECORD_BYTES ? null : parts.join('').replace(/\r$/, '');
    [parts, bytes] = [[], 0];
    return line;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      parts.push(chunk.slice(start, newline));
      bytes += newline - start;
      yield take();
      start = newline + 1;
    }
    const rest = chunk.slice(start);
    bytes += rest.length;
    if (bytes <= MAX_RECORD_BYTES) parts.push(rest);
    else parts = [];
  }
  if (parts.length > 0 || bytes > 0) yield take();
}

/**
 * A timestamp of the log as a time. `#TZ/UTC` logs hold unix seconds. A
 * `#TZ/UNKNOWN` log (Rockbox without a time zone set) holds the device clock's
 * wall time written as if it were UTC; it is read as wall time in the time zone
 * of the computer running the import (TZ), as other uploaders of these logs do.
 */
function logTime(seconds: number | undefined, utc: boolean): Date | undefined {
  if (seconds === undefined) return undefined;
  const wall = new Date(seconds * 1000);
  if (utc || Number.isNaN(wall.getTime())) return wall;
  // Not new Date(y, m, ...): it reads years 0–99 as 1900–1999.
  const local = new Date(0);
  local.setFullYear(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  local.setHours(wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds(), 0);
  return local;
}

const COLUMNS = ['artist', 'album', 'title', 'tracknum', 'length', 'rating', 'timestamp', 'mbid'];

/** One line of a log: artist, album, title, track number, length (s), rating (L listened, S skipped), timestamp, MBID. */
function scrobblerLogRecord(cells: string[], utc: boolean): ImportRecord | ForeignRecord {
  if (cells.length < 7 || cells.length > COLUMNS.length) return { foreign: `expected 7 or 8 tab-separated fields, found ${cells.length}` };
  const cell = Object.fromEntries(COLUMNS.map((name, i) => [name, cells[i] ?? '']));
  if (cell.rating!.trim().toUpperCase() === 'S') return { ignored: 'skipped on the device (rating S)' };
  return listenRecord(
    {
      artist: text(cell.artist),
      title: text(cell.title),
      album: text(cell.album),
      trackNumber: count(cell.tracknum) || undefined,
      durationMs: durationMs(undefined, cell.length),
      mbid: mbidOrUndefined(cell.mbid),
      submitted: { ...cell, tz: utc ? 'UTC' : 'UNKNOWN' },
    },
    logTime(count(cell.timestamp, Number.MAX_SAFE_INTEGER), utc),
  );
}

/**
 * The records of an Audioscrobbler portable-device log (`.scrobbler.log`, as
 * Rockbox writes it): `#` lines are headers (`#AUDIOSCROBBLER/1.1`,
 * `#TZ/UTC` or `#TZ/UNKNOWN`, `#CLIENT/...`), every other line one play.
 */
export async function* scrobblerLogRecords(
  chunks: AsyncIterable<string>,
): AsyncGenerator<{ record: number; result: ImportRecord | ForeignRecord | UnreadRecord }> {
  let header = false;
  let utc = false;
  let record = 0;
  for await (const line of textLines(chunks)) {
    if (line?.startsWith('#')) {
      header ||= /^#AUDIOSCROBBLER\//i.test(line);
      if (/^#TZ\//i.test(line)) utc = /^#TZ\/UTC\b/i.test(line);
      continue;
    }
    if (line !== null && !line.trim()) continue;
    record++;
    if (line === null) yield { record, result: { unread: `record is larger than ${MAX_RECORD_BYTES} bytes` } };
    else yield { record, result: header ? scrobblerLogRecord(line.split('\t'), utc) : { foreign: 'no #AUDIOSCROBBLER header line before the first play' } };
  }
}
