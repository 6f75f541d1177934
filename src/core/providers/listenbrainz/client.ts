import { providerFetch } from '../http.ts';
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
  };
}
