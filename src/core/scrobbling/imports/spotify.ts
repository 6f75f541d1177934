import type { ImportListen } from './schemas.ts';
import { count, isObject, listenRecord, spotifyId, text, type ForeignRecord, type ImportRecord } from './records.ts';

/** The usual scrobbling rule: shorter plays are not listens. */
export const MIN_SPOTIFY_PLAY_MS = 30_000;

/** Who and where, not what was played: not kept with the listen. */
const PERSONAL_FIELDS = ['username', 'ip_addr', 'ip_addr_decrypted', 'user_agent_decrypted'];

/** Spotify's times are UTC: "2021-03-04T12:34:56Z", or in older exports "2021-03-04 12:34:56", or (account data) "2021-03-04 12:34". */
function utc(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = value.trim().replace(' ', 'T');
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
}

/** The listen of a play that ended at `ended` after `played` ms, or why there is none. */
function playedListen(played: number | undefined, ended: Date | undefined, listen: Partial<ImportListen> & Pick<ImportListen, 'submitted'>): ImportRecord {
  if (played === undefined) return { ignored: 'ms played is not a number' };
  if (played < MIN_SPOTIFY_PLAY_MS) return { ignored: 'played for less than 30 seconds' };
  return listenRecord({ ...listen, playedMs: played }, ended && new Date(ended.getTime() - played));
}

/**
 * One stream of the account data's `StreamingHistory_music_*.json` (older:
 * `StreamingHistory*.json`): `endTime` is UTC to the minute, when the play ended.
 */
function accountRecord(value: Record<string, unknown>): ImportRecord {
  if ('episodeName' in value) return { ignored: 'a podcast episode, not a track' };
  return playedListen(count(value.msPlayed), utc(value.endTime), { artist: text(value.artistName), title: text(value.trackName), submitted: value });
}

/**
 * One stream of a Spotify streaming history: the Extended Streaming History
 * (`ts`, `ms_played`, `master_metadata_*`) or the account data's shorter one
 * (`endTime`, `msPlayed`, `artistName`, `trackName`). Spotify logs when a
 * stream ended, so the listen started the time played before that.
 */
export function spotifyRecord(value: unknown): ImportRecord | ForeignRecord {
  if (isObject(value) && 'endTime' in value && 'msPlayed' in value) return accountRecord(value);
  if (!isObject(value) || !('ts' in value) || !('ms_played' in value)) {
    return { foreign: 'a record has no ts and ms_played (extended history) nor endTime and msPlayed (account data)' };
  }
  const title = text(value.master_metadata_track_name);
  if (!title) return { ignored: text(value.episode_name) ? 'a podcast episode, not a track' : 'not a track (podcast, audiobook or video)' };
  const submitted = Object.fromEntries(Object.entries(value).filter(([field]) => !PERSONAL_FIELDS.includes(field)));
  return playedListen(count(value.ms_played), utc(value.ts), {
    artist: text(value.master_metadata_album_artist_name),
    title,
    album: text(value.master_metadata_album_album_name),
    spotifyId: spotifyId(value.spotify_track_uri),
    submitted,
  });
}
