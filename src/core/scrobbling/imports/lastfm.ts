import { mbidOrUndefined } from '../../catalog/track-metadata.ts';
import { count, isObject, listenRecord, text, type ForeignRecord, type ImportRecord } from './records.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** "31 Jan 2021 18:30" (lastfm-to-csv) or "31 Jan 2021, 18:30" (utc_time), always UTC. */
const LASTFM_DATE = /^(\d{1,2}) ([a-z]{3})[a-z]* (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?$/i;

function lastfmDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const match = LASTFM_DATE.exec(value.trim());
  if (!match) return new Date(value);
  const [, day, month, year, hour, minute, second] = match;
  const monthIndex = MONTHS.indexOf(month!.toLowerCase());
  if (monthIndex < 0) return undefined;
  // Not Date.UTC: it reads years 0–99 as 1900–1999, which would turn "01 Jan 0000" into a plausible 1900.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), monthIndex, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second ?? 0));
  return date;
}

/** Column positions by name: from the header row, or the headerless artist,album,track,date order. */
type Layout = { columns: string[]; hasHeader: boolean };

const HEADERLESS: Layout = { columns: ['artist', 'album', 'track', 'date'], hasHeader: false };

export function lastfmLayout(firstRow: string[]): Layout {
  const names = firstRow.map((cell) => cell.trim().toLowerCase());
  const isHeader = names.includes('artist') && names.includes('track') && names.some((name) => ['uts', 'utc_time', 'date'].includes(name));
  return isHeader ? { columns: names, hasHeader: true } : HEADERLESS;
}

/** One scrobble row of a Last.fm CSV export in the given layout. */
export function lastfmRecord(row: string[], layout: Layout): ImportRecord | ForeignRecord {
  if (row.length !== layout.columns.length) {
    return { foreign: `expected ${layout.columns.length} columns (${layout.columns.join(',')}), found ${row.length}` };
  }
  const cell = Object.fromEntries(layout.columns.map((name, i) => [name, row[i]!]));
  const seconds = count(cell.uts, Number.MAX_SAFE_INTEGER);
  return listenRecord(
    {
      artist: text(cell.artist),
      title: text(cell.track),
      album: text(cell.album),
      artistMbid: mbidOrUndefined(cell.artist_mbid),
      albumMbid: mbidOrUndefined(cell.album_mbid),
      mbid: mbidOrUndefined(cell.track_mbid),
      submitted: cell,
    },
    seconds === undefined ? lastfmDate(cell.utc_time ?? cell.date) : new Date(seconds * 1000),
  );
}

/** Cover-art links: bulk in every track of a page, and not what was played. */
const LASTFM_JSON_DROPPED = ['image', 'streamable'];

/**
 * One track of a Last.fm JSON export (the `user.getRecentTracks` page shape,
 * `recenttracks.track[]`): `artist` is `{'#text', mbid}` (or `{name, mbid}`
 * from `extended=1`), `date.uts` is unix seconds. The track playing when the
 * page was fetched has no date (`@attr.nowplaying`): not a scrobble yet.
 */
export function lastfmJsonRecord(value: unknown): ImportRecord | ForeignRecord {
  if (!isObject(value) || !('name' in value) || !('artist' in value)) return { foreign: 'a track has no name and artist' };
  const artist = isObject(value.artist) ? value.artist : {};
  const album = isObject(value.album) ? value.album : {};
  const attributes = isObject(value['@attr']) ? value['@attr'] : {};
  if (!isObject(value.date)) return { ignored: attributes.nowplaying ? 'playing now, not a scrobble yet' : 'no date' };
  const seconds = count(value.date.uts, Number.MAX_SAFE_INTEGER);
  return listenRecord(
    {
      artist: text(artist['#text']) ?? text(artist.name),
      title: text(value.name),
      album: text(album['#text']),
      mbid: mbidOrUndefined(value.mbid),
      artistMbid: mbidOrUndefined(artist.mbid),
      albumMbid: mbidOrUndefined(album.mbid),
      submitted: Object.fromEntries(Object.entries(value).filter(([field]) => !LASTFM_JSON_DROPPED.includes(field))),
    },
    seconds === undefined ? undefined : new Date(seconds * 1000),
  );
}

/** Where the tracks are: `recenttracks.track` of a page, or of each page of an array of pages. */
export const isLastfmTrackList = (keys: readonly string[]) => keys.length === 2 && keys[0] === 'recenttracks' && keys[1] === 'track';
