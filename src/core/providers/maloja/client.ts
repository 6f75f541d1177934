import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { ScrobbleService } from '../scrobble-service.ts';

interface MalojaAnswer {
  status?: string;
  error?: { type?: string; desc?: string };
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * A Maloja server (or any server speaking its API: another Earshot's scrobbler host) with the
 * user's API key. Maloja takes one scrobble a call, deletes one by its timestamp (its primary key),
 * and has no now-playing or love.
 */
export function malojaService(baseUrl: string, key: string): ScrobbleService {
  const root = baseUrl.replace(/\/+$/, '');
  /** A call with the key: null when Maloja answers success, else its reason for refusing. */
  const call = async (method: string, body: Record<string, unknown>): Promise<string | null> => {
    const response = await providerFetch(
      'maloja',
      `${root}/apis/mlj_1/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, ...body }) },
      [400, 403],
    );
    const answer = await providerJson<MalojaAnswer>('maloja', response);
    if (response.ok && answer.status === 'success') return null;
    const reason = `Maloja ${answer.error?.type ?? `HTTP ${response.status}`}: ${String(answer.error?.desc ?? '').slice(0, 300)}`;
    // A wrong key refuses every play alike: the call fails, not this one play.
    if (response.status === 403) throw new ProviderError('Refused', 'maloja', reason);
    return reason;
  };
  return {
    maxBatch: 1,
    async scrobble(plays) {
      return Promise.all(
        plays.map((play) =>
          call('newscrobble', {
            artists: [play.artist],
            title: play.title,
            ...(play.album ? { album: play.album } : {}),
            ...(play.durationMs ? { length: Math.round(play.durationMs / 1000) } : {}),
            time: unixSeconds(play.listenedAt),
          }),
        ),
      );
    },
    // Maloja answers success whether or not it had a scrobble at that time: either way it is gone.
    deleteScrobble: (play) => call('delete_scrobble', { timestamp: unixSeconds(play.listenedAt) }),
  };
}
