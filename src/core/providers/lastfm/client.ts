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
  return lastfmAnswer<T>(response);
}

/** A Last.fm answer's JSON body; its error codes become ProviderErrors. */
async function lastfmAnswer<T>(response: Response): Promise<T> {
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

/** Last.fm's most tracks per user.getRecentTracks page. */
export const RECENT_TRACKS_LIMIT = 200;

/** One page of user.getRecentTracks: the tracks as sent (the playing-now one included, flagged), and the paging Last.fm reports. */
export interface RecentTracksPage {
  tracks: unknown[];
  totalPages: number;
  total: number | null;
}

/**
 * Reads a page of a user's scrobbles, newest first, listened in [from, to) (unix seconds; either
 * may be absent): an unsigned call with the operator's API key, since scrobbles are public.
 */
export async function lastfmRecentTracks(
  config: Pick<LastfmRelayConfig, 'apiKey' | 'apiUrl'>,
  user: string,
  window: { page: number; from?: number | undefined; to?: number | undefined },
): Promise<RecentTracksPage> {
  const url = new URL(config.apiUrl);
  const params: Record<string, string> = { method: 'user.getRecentTracks', user, api_key: config.apiKey, format: 'json', limit: String(RECENT_TRACKS_LIMIT) };
  params.page = String(window.page);
  if (window.from !== undefined) params.from = String(window.from);
  if (window.to !== undefined) params.to = String(window.to);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const body = await lastfmAnswer<{ recenttracks?: { track?: unknown; '@attr'?: Record<string, unknown> } }>(
    // A user Last.fm does not know is its error 6, sent with HTTP 404.
    await providerFetch('lastfm', url.toString(), {}, [400, 403, 404]),
  );
  if (!body.recenttracks) throw new ProviderError('Unavailable', 'lastfm', 'Last.fm answered user.getRecentTracks without recenttracks');
  const track = body.recenttracks.track;
  // One track comes as an object, none as an empty list (or nothing): Last.fm's JSON follows its XML.
  const tracks = Array.isArray(track) ? track : track ? [track] : [];
  const attributes = body.recenttracks['@attr'] ?? {};
  const total = Number(attributes.total);
  return { tracks, totalPages: Number(attributes.totalPages) || 0, total: Number.isInteger(total) && total >= 0 ? total : null };
}
