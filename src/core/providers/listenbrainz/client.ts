import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { RelayPlay, ScrobbleService } from '../scrobble-service.ts';

/** ListenBrainz's MAX_LISTENS_PER_REQUEST: an `import` submission takes up to this many listens. */
const MAX_LISTENS = 1000;

/**
 * The API root of a ListenBrainz server as users write it: with or without the `/1/` some clients
 * (Navidrome) want, so `https://lb.example/1/` and `https://lb.example` are the same server.
 */
export function listenbrainzRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/1$/, '');
}

function trackMetadata(play: Omit<RelayPlay, 'listenedAt'>) {
  const additional: Record<string, unknown> = { submission_client: 'Earshot relay' };
  if (play.durationMs) additional.duration_ms = play.durationMs;
  if (play.mbid) additional.recording_mbid = play.mbid;
  return { artist_name: play.artist, track_name: play.title, ...(play.album ? { release_name: play.album } : {}), additional_info: additional };
}

/**
 * A ListenBrainz server (listenbrainz.org, or any server speaking its API: another Earshot's
 * scrobbler host) reached with the user's token. ListenBrainz refuses a submission whole, so one
 * bad listen refuses its batch (the sender then sends that batch's plays one by one).
 */
export function listenbrainzService(baseUrl: string, token: string): ScrobbleService {
  const root = listenbrainzRoot(baseUrl);
  const submit = async (body: unknown): Promise<void> => {
    const response = await providerFetch('listenbrainz', `${root}/1/submit-listens`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.body?.cancel();
  };
  return {
    maxBatch: MAX_LISTENS,
    async scrobble(plays) {
      const payload = plays.map((play) => ({ listened_at: Math.floor(play.listenedAt.getTime() / 1000), track_metadata: trackMetadata(play) }));
      // 'single' is the type for one listen just played; a batch must be an 'import'.
      await submit({ listen_type: plays.length === 1 ? 'single' : 'import', payload });
      return plays.map(() => null);
    },
    async nowPlaying(play) {
      await submit({ listen_type: 'playing_now', payload: [{ track_metadata: trackMetadata(play) }] });
    },
    async love(play, loved) {
      // ListenBrainz names a recording by its MBID (or its own msid, which a relay never learns).
      if (!play.mbid) return;
      const response = await providerFetch('listenbrainz', `${root}/1/feedback/recording-feedback`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recording_mbid: play.mbid, score: loved ? 1 : 0 }),
      });
      await response.body?.cancel();
    },
    async deleteScrobble(play) {
      // delete-listen names a listen by its time and recording_msid, the server's own id, which a
      // submission does not answer: the listen is looked up among the token's user's listens.
      const user = await listenbrainzTokenUser(root, token);
      if (user === null) throw new ProviderError('Refused', 'listenbrainz', 'ListenBrainz says the token is not valid');
      const listenedAt = Math.floor(play.listenedAt.getTime() / 1000);
      const msid = await recordingMsid(root, user, listenedAt, play);
      if (msid === null) return null;
      const response = await providerFetch('listenbrainz', `${root}/1/delete-listen`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ listened_at: listenedAt, recording_msid: msid }),
      });
      await response.body?.cancel();
      return null;
    },
  };
}

/** How many listens at or before a time are read to find one: more than anyone plays in one second. */
const LISTENS_AT_ONE_TIME = 25;

/** A listen as the server lists it; checked field by field, as any server may send anything. */
interface Listed {
  listened_at?: unknown;
  recording_msid?: unknown;
  track_metadata?: { artist_name?: unknown; track_name?: unknown; additional_info?: { recording_msid?: unknown } | null } | null;
}

const sameName = (a: unknown, b: string) => typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The recording_msid of the user's listen of `play` at `listenedAt` (unix seconds), or null when
 * there is none (deleted there already). The server lists it on the listen, and in
 * track_metadata.additional_info. Listens at that second come first before max_ts one second later.
 */
async function recordingMsid(root: string, user: string, listenedAt: number, play: RelayPlay): Promise<string | null> {
  const { listens } = await listenbrainzListens(root, user, listenedAt + 1, LISTENS_AT_ONE_TIME);
  for (const listen of listens as (Listed | null)[]) {
    if (typeof listen !== 'object' || listen === null) continue;
    const metadata = listen.track_metadata ?? {};
    if (listen.listened_at !== listenedAt || !sameName(metadata.artist_name, play.artist) || !sameName(metadata.track_name, play.title)) continue;
    const msid = listen.recording_msid ?? metadata.additional_info?.recording_msid;
    if (typeof msid === 'string' && msid !== '') return msid;
  }
  return null;
}

/** One page of a user's listens, newest first, as the server sends them (each is read by the import's ListenBrainz reader). */
export interface ListensPage {
  listens: unknown[];
}

/**
 * Reads a ListenBrainz user's listens: public, so no token. `before` is max_ts (listens strictly
 * before it, in unix seconds); `count` up to MAX_LISTENS. Only max_ts is sent, never min_ts with it:
 * walking back by max_ts alone is what every ListenBrainz server answers the same way.
 */
export async function listenbrainzListens(baseUrl: string, user: string, before: number, count = MAX_LISTENS): Promise<ListensPage> {
  const url = `${listenbrainzRoot(baseUrl)}/1/user/${encodeURIComponent(user)}/listens?max_ts=${before}&count=${Math.min(count, MAX_LISTENS)}`;
  const body = await providerJson<{ payload?: { listens?: unknown } }>('listenbrainz', await providerFetch('listenbrainz', url));
  const listens = body.payload?.listens;
  if (!Array.isArray(listens)) throw new ProviderError('Unavailable', 'listenbrainz', 'ListenBrainz answered listens without payload.listens');
  return { listens };
}

/** How many listens the user has, as the server counts them (shown as the history's expected size). */
export async function listenbrainzListenCount(baseUrl: string, user: string): Promise<number | null> {
  const url = `${listenbrainzRoot(baseUrl)}/1/user/${encodeURIComponent(user)}/listen-count`;
  const body = await providerJson<{ payload?: { count?: unknown } }>('listenbrainz', await providerFetch('listenbrainz', url));
  const count = body.payload?.count;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
}

/** The user name a token belongs to (validate-token), or null when the server says the token is not valid. */
export async function listenbrainzTokenUser(baseUrl: string, token: string): Promise<string | null> {
  const response = await providerFetch('listenbrainz', `${listenbrainzRoot(baseUrl)}/1/validate-token`, { headers: { authorization: `Token ${token}` } });
  const body = await providerJson<{ valid?: boolean; user_name?: unknown }>('listenbrainz', response);
  return body.valid && typeof body.user_name === 'string' ? body.user_name : null;
}
