import { count, isObject, listenRecord, spotifyId, text, type ForeignRecord, type ImportRecord } from './records.ts';

/** The usual scrobbling rule: shorter plays are not listens. */
export const MIN_SPOTIFY_PLAY_MS = 30_000;

/** Who and where, not what was played: not kept with the listen. */
const PERSONAL_FIELDS = ['username', 'ip_addr', 'ip_addr_decrypted', 'user_agent_decrypted'];

/** `ts` is UTC, as "2021-03-04T12:34:56Z" or, in older exports, "2021-03-04 12:34:56". */
function utc(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = value.trim().replace(' ', 'T');
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
}

/**
 * One stream of a Spotify Extended Streaming History file. Spotify logs when a
 * stream ended, so the listen started `ms_played` before `ts`.
 */
export function spotifyRecord(value: unknown): ImportRecord | ForeignRecord {
  if (!isObject(value) || !('ts' in value) || !('ms_played' in value)) return { foreign: 'a record has no ts and ms_played' };
  const title = text(value.master_metadata_track_name);
  if (!title) return { ignored: text(value.episode_name) ? 'a podcast episode, not a track' : 'not a track (podcast, audiobook or video)' };
  const played = count(value.ms_played);
  if (played === undefined) return { ignored: 'ms_played is not a number' };
  if (played < MIN_SPOTIFY_PLAY_MS) return { ignored: 'played for less than 30 seconds' };
  const ended = utc(value.ts);
  const submitted = Object.fromEntries(Object.entries(value).filter(([field]) => !PERSONAL_FIELDS.includes(field)));
  return listenRecord(
    {
      artist: text(value.master_metadata_album_artist_name),
      title,
      album: text(value.master_metadata_album_album_name),
      spotifyId: spotifyId(value.spotify_track_uri),
      submitted,
    },
    ended && new Date(ended.getTime() - played),
  );
}
