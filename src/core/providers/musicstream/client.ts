/**
 * The streaming service's Web API (Spotify's shapes): the account, playback control on the
 * user's active device, what is playing, and the recently played tracks the poller scrobbles.
 */
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { CurrentlyPlaying, RecentPlay, StreamedTrack, StreamingClient } from '../types.ts';

const PROVIDER = 'musicstream';

/** The most recently-played items one request may ask for. */
const PAGE_LIMIT = 50;
/**
 * Pages of recently played tracks one poll follows: the service keeps only about the last 50
 * plays anyway, so more pages would mean a misbehaving `next`, not more history.
 */
const MAX_PAGES = 5;

interface ApiArtist {
  name?: string;
}

/** A track object; only the fields Earshot keeps. */
export interface ApiTrack {
  type?: string;
  id?: string | null;
  name?: string;
  artists?: ApiArtist[];
  album?: { name?: string; artists?: ApiArtist[]; images?: { url?: string }[] };
  duration_ms?: number;
  external_ids?: { isrc?: string };
  track_number?: number;
  disc_number?: number;
  external_urls?: { spotify?: string };
}

interface ApiPlaying {
  is_playing?: boolean;
  progress_ms?: number | null;
  item?: ApiTrack | null;
  device?: { name?: string } | null;
}

interface ApiRecentlyPlayed {
  items?: { track?: ApiTrack; played_at?: string }[];
  next?: string | null;
  cursors?: { after?: string | null; before?: string | null } | null;
}

interface ApiError {
  error?: { status?: number; message?: string; reason?: string };
}

const names = (artists: ApiArtist[] | undefined) => (artists ?? []).flatMap((artist) => (artist.name ? [artist.name] : []));

/** The track as Earshot describes it, or null for anything that is not one (an episode, an ad). */
export function streamedTrack(item: ApiTrack | null | undefined): StreamedTrack | null {
  if (!item || (item.type !== undefined && item.type !== 'track') || !item.name) return null;
  return {
    id: item.id ?? undefined,
    title: item.name,
    artists: names(item.artists),
    album: item.album?.name || undefined,
    albumArtist: names(item.album?.artists)[0],
    durationMs: item.duration_ms,
    isrc: item.external_ids?.isrc,
    trackNumber: item.track_number,
    discNumber: item.disc_number,
    url: item.external_urls?.spotify,
    artUrl: item.album?.images?.[0]?.url,
  };
}

/** The plays of a page after `afterMs` (all when null), with their times. */
function playsOf(page: ApiRecentlyPlayed, afterMs: number | null): RecentPlay[] {
  return (page.items ?? []).flatMap((item) => {
    const track = streamedTrack(item.track);
    const playedAt = new Date(item.played_at ?? '');
    if (!track || Number.isNaN(playedAt.getTime()) || (afterMs !== null && playedAt.getTime() <= afterMs)) return [];
    return [{ track, playedAt }];
  });
}

/** The same play seen on two pages once. */
const playKey = (play: RecentPlay) => `${play.playedAt.getTime()}\u0000${play.track.url ?? play.track.title}`;

export function createMusicstreamClient(config: ProviderConfig): StreamingClient {
  const authorization = (token: string) => ({ authorization: `Bearer ${token}` });

  /** A player command: 204 (or 200) when done; the service's 404 means there is no device to command. */
  async function command(token: string, method: 'PUT' | 'POST', action: string): Promise<void> {
    const response = await providerFetch(PROVIDER, `${config.apiUrl}/me/player/${action}`, { method, headers: authorization(token) }, [404]);
    if (response.status !== 404) return void (await response.body?.cancel());
    const { error } = ((await response.json().catch(() => ({}))) ?? {}) as ApiError;
    if (error?.reason === 'NO_ACTIVE_DEVICE')
      throw new ProviderError('NoActiveDevice', PROVIDER, `no active ${PROVIDER} device: start playing on a device first`);
    throw new ProviderError(
      'Refused',
      PROVIDER,
      `${PROVIDER} refused the request (HTTP 404)${error?.message ? `: ${String(error.message).slice(0, 300)}` : ''}`,
    );
  }

  async function recentPage(token: string, query: URLSearchParams): Promise<ApiRecentlyPlayed> {
    const response = await providerFetch(PROVIDER, `${config.apiUrl}/me/player/recently-played?${query}`, { headers: authorization(token) });
    return providerJson<ApiRecentlyPlayed>(PROVIDER, response);
  }

  return {
    name: PROVIDER,
    kind: 'streaming',
    oauth: {
      scopes: ['user-read-playback-state', 'user-modify-playback-state', 'user-read-currently-playing', 'user-read-recently-played', 'user-read-email'],
      pkce: true,
    },

    async account(token) {
      const me = await providerJson<{ id?: string; display_name?: string | null }>(
        PROVIDER,
        await providerFetch(PROVIDER, `${config.apiUrl}/me`, { headers: authorization(token) }),
      );
      if (!me.id) throw new ProviderError('Unavailable', PROVIDER, `${PROVIDER} sent an account without an id`);
      return { id: me.id, name: me.display_name || me.id };
    },

    pause: (token) => command(token, 'PUT', 'pause'),
    play: (token) => command(token, 'PUT', 'play'),
    next: (token) => command(token, 'POST', 'next'),
    previous: (token) => command(token, 'POST', 'previous'),

    async currentlyPlaying(token): Promise<CurrentlyPlaying | null> {
      const response = await providerFetch(PROVIDER, `${config.apiUrl}/me/player/currently-playing`, { headers: authorization(token) });
      if (response.status === 204) return null;
      const playing = await providerJson<ApiPlaying>(PROVIDER, response);
      return {
        isPlaying: playing.is_playing === true,
        progressMs: playing.progress_ms ?? null,
        track: streamedTrack(playing.item),
        device: playing.device?.name ?? null,
      };
    },

    /**
     * Asks for the plays after the cursor and follows the service's `next` (its query, on our
     * own API base) while pages come back full of new plays; the first poll (no cursor) takes
     * the latest page only, which is all the history the service keeps.
     */
    async recentlyPlayed(token, cursor) {
      // A cursor that is not a time (never written by this client) reads as none.
      const afterMs = cursor !== null && Number.isFinite(Number(cursor)) ? Number(cursor) : null;
      const query = new URLSearchParams({ limit: String(PAGE_LIMIT) });
      if (afterMs !== null) query.set('after', String(afterMs));
      const plays = new Map<string, RecentPlay>();
      let newest = afterMs;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const page = await recentPage(token, query);
        const found = playsOf(page, afterMs);
        for (const play of found) plays.set(playKey(play), play);
        const after = page.cursors?.after;
        for (const candidate of [typeof after === 'string' ? Number(after) : NaN, ...found.map((play) => play.playedAt.getTime())]) {
          if (Number.isFinite(candidate) && (newest === null || candidate > newest)) newest = candidate;
        }
        // A page with a play at or before the cursor has reached what earlier polls read.
        const reachedCursor = (page.items ?? []).some((item) => afterMs !== null && Date.parse(item.played_at ?? '') <= afterMs);
        if (afterMs === null || !page.next || found.length === 0 || reachedCursor) break;
        const next = new URL(page.next, config.apiUrl).searchParams;
        if (next.toString() === query.toString()) break;
        for (const name of [...query.keys()]) query.delete(name);
        next.forEach((value, name) => query.set(name, value));
      }
      return { plays: [...plays.values()].sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime()), cursor: newest === null ? cursor : String(newest) };
    },
  };
}
