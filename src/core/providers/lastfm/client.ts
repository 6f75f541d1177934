import type { LastfmRelayConfig } from '../../../toolkit/config.ts';
import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { RelayPlay, ScrobbleService } from '../scrobble-service.ts';
import { signLastfmCall } from './signature.ts';

/** track.scrobble takes up to 50 scrobbles a call. */
const MAX_SCROBBLES = 50;
/** Last.fm's codes for "try again later": backend failure, offline, temporarily unavailable, rate limited. */
const TRANSIENT = new Set([8, 11, 16, 29]);

interface LastfmErrorBody {
  error?: number;
  message?: string;
}

/** One signed call (POST, form-encoded, JSON answer); Last.fm's error codes become ProviderErrors. */
async function signedCall<T>(config: LastfmRelayConfig, params: Record<string, string>): Promise<T> {
  const form = new Map(Object.entries({ ...params, api_key: config.apiKey }));
  form.set('api_sig', signLastfmCall(form, config.secret));
  form.set('format', 'json');
  const response = await providerFetch(
    'lastfm',
    config.apiUrl,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams([...form]).toString() },
    [400, 403],
  );
  const body = await providerJson<T & LastfmErrorBody>('lastfm', response);
  if (body.error === undefined && response.ok) return body;
  const message = `Last.fm error ${body.error ?? response.status}: ${String(body.message ?? '').slice(0, 300)}`;
  if (body.error === 29) throw new ProviderError('RateLimited', 'lastfm', message, 60);
  throw new ProviderError(TRANSIENT.has(body.error ?? 0) ? 'Unavailable' : 'Refused', 'lastfm', message);
}

/** Trades a token the user approved on Last.fm's authorisation page for a session key (auth.getSession). */
export async function lastfmSession(config: LastfmRelayConfig, token: string): Promise<{ name: string; key: string }> {
  const body = await signedCall<{ session?: { name?: string; key?: string } }>(config, { method: 'auth.getSession', token });
  if (!body.session?.key) throw new ProviderError('Unavailable', 'lastfm', 'Last.fm answered auth.getSession without a session');
  return { name: String(body.session.name ?? ''), key: body.session.key };
}

/** Where to send the browser to link an account: Last.fm's web authorisation, coming back to `callback` with `token`. */
export function lastfmAuthorizeUrl(config: LastfmRelayConfig, callback: string): string {
  const url = new URL(config.authUrl);
  url.searchParams.set('api_key', config.apiKey);
  url.searchParams.set('cb', callback);
  return url.toString();
}

interface ScrobbleAnswer {
  scrobbles?: { scrobble?: ScrobbleEcho | ScrobbleEcho[] };
}
interface ScrobbleEcho {
  ignoredMessage?: { code?: string | number; '#text'?: string };
}

function trackParams(play: Omit<RelayPlay, 'listenedAt'>, suffix = ''): Record<string, string> {
  const params: Record<string, string> = { [`artist${suffix}`]: play.artist, [`track${suffix}`]: play.title };
  if (play.album) params[`album${suffix}`] = play.album;
  if (play.durationMs) params[`duration${suffix}`] = String(Math.round(play.durationMs / 1000));
  if (play.mbid) params[`mbid${suffix}`] = play.mbid;
  return params;
}

/** Last.fm (or a server speaking its 2.0 API) as the operator's application, for one linked account. */
export function lastfmService(config: LastfmRelayConfig, sessionKey: string): ScrobbleService {
  return {
    maxBatch: MAX_SCROBBLES,
    async scrobble(plays) {
      const params: Record<string, string> = { method: 'track.scrobble', sk: sessionKey };
      plays.forEach((play, i) =>
        Object.assign(params, trackParams(play, `[${i}]`), { [`timestamp[${i}]`]: String(Math.floor(play.listenedAt.getTime() / 1000)) }),
      );
      const body = await signedCall<ScrobbleAnswer>(config, params);
      const echoed = body.scrobbles?.scrobble;
      const echoes = Array.isArray(echoed) ? echoed : echoed ? [echoed] : [];
      return plays.map((_, i) => {
        const ignored = echoes[i]?.ignoredMessage;
        const code = Number(ignored?.code ?? 0);
        return code === 0 ? null : `Last.fm ignored the scrobble (code ${code})${ignored?.['#text'] ? `: ${ignored['#text']}` : ''}`;
      });
    },
    async nowPlaying(play) {
      await signedCall(config, { method: 'track.updateNowPlaying', sk: sessionKey, ...trackParams(play) });
    },
    async love(play, loved) {
      await signedCall(config, { method: loved ? 'track.love' : 'track.unlove', sk: sessionKey, artist: play.artist, track: play.title });
    },
  };
}
