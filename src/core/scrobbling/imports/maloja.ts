import { count, durationMs, isObject, listenRecord, text, type ForeignRecord, type ImportRecord } from './records.ts';

/**
 * One scrobble of a Maloja export (`{maloja: {export_time}, scrobbles: [...]}`):
 * `time` in unix seconds, `track` with `artists[]`, `title`, `album`
 * (`albumtitle`, or `name` in older exports) and `length` in seconds. Maloja
 * credits every artist of a track; they are joined with " & ", the usual
 * credit for a collaboration, and the list stays in the record.
 */
export function malojaRecord(value: unknown): ImportRecord | ForeignRecord {
  if (!isObject(value) || !('time' in value) || !isObject(value.track)) return { foreign: 'a scrobble has no time and track' };
  const { track } = value;
  const artists = Array.isArray(track.artists) ? track.artists.flatMap((artist) => text(artist) ?? []) : [];
  const album = isObject(track.album) ? track.album : {};
  const seconds = count(value.time, Number.MAX_SAFE_INTEGER);
  return listenRecord(
    {
      artist: malojaArtistCredit(artists) || undefined,
      title: text(track.title),
      album: text(album.albumtitle) ?? text(album.name),
      durationMs: durationMs(undefined, track.length),
      submitted: value,
    },
    seconds === undefined ? undefined : new Date(seconds * 1000),
  );
}

/** One credit for a Maloja track's artists: imports and live Maloja submissions file them alike. */
export const malojaArtistCredit = (artists: readonly string[]) => artists.join(' & ');

export const isMalojaScrobbleList = (keys: readonly string[]) => keys.length === 1 && keys[0] === 'scrobbles';
