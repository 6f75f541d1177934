/**
 * A fake streaming service on loopback speaking the same Web API as the real one (Spotify's
 * paths and shapes): one listener's account, a player on an optional device that plays through
 * the tracks the fake knows, and a recently played history with cursor paging.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { FakeOAuth, fakeProviderConfig } from '../fake/oauth.ts';
import { sendJson, startFakeServer, type FakeServer } from '../fake/server.ts';

export interface FakeTrackInput {
  title: string;
  artist: string;
  album?: string;
  durationMs?: number;
  isrc?: string;
}

export interface FakeMusicstream {
  server: FakeServer;
  oauth: FakeOAuth;
  config: ProviderConfig;
  url: string;
  /** A track the fake plays; id is generated. */
  addRecentPlay(play: { title: string; artist: string; album?: string; durationMs?: number; isrc?: string; playedAt: Date }): void;
  /** The active device (null: none, so player commands answer 404 NO_ACTIVE_DEVICE). */
  setDevice(name: string | null): void;
  /** Loads a track (null: nothing) at `progressMs` (0 when not said), playing or paused. */
  setPlaying(track: { title: string; artist: string; album?: string; durationMs?: number } | null, isPlaying?: boolean, progressMs?: number): void;
  readonly isPlaying: boolean;
  close(): Promise<void>;
}

export interface FakeMusicstreamOptions {
  port?: number;
  clientId?: string;
  clientSecret?: string;
  account?: string;
  /** The most recently-played items one page holds, whatever `limit` asks (the real one caps at 50): small, to exercise paging. */
  pageSize?: number;
}

interface FakeTrack extends FakeTrackInput {
  id: string;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** An id shaped like the real service's: 22 base-62 characters. */
const newId = () => [...randomBytes(22)].map((byte) => BASE62[byte % 62]).join('');

const DEFAULT_DURATION_MS = 200_000;

function apiError(response: ServerResponse, status: number, message: string, reason?: string): void {
  sendJson(response, status, { error: { status, message, ...(reason ? { reason } : {}) } });
}

class Player {
  device: string | null = 'Fake speaker';
  current: FakeTrack | null = null;
  playing = false;
  private progressMs = 0;
  private resumedAt = 0;

  progress(): number {
    const elapsed = this.playing ? Date.now() - this.resumedAt : 0;
    return Math.min(this.progressMs + elapsed, this.current?.durationMs ?? DEFAULT_DURATION_MS);
  }

  start(track: FakeTrack | null, playing: boolean, progressMs = 0): void {
    this.current = track;
    this.playing = track !== null && playing;
    this.progressMs = progressMs;
    this.resumedAt = Date.now();
  }

  setPlaying(playing: boolean): void {
    this.progressMs = this.progress();
    this.resumedAt = Date.now();
    this.playing = playing;
  }
}

export async function startFakeMusicstream(options: FakeMusicstreamOptions = {}): Promise<FakeMusicstream> {
  const oauth = new FakeOAuth({
    clientId: options.clientId ?? 'musicstream-client',
    clientSecret: options.clientSecret ?? 'musicstream-secret',
    account: options.account,
  });
  const tracks = new Map<string, FakeTrack>();
  /** Newest first, as the service lists them. */
  const history: { track: FakeTrack; playedAt: Date }[] = [];
  const player = new Player();
  const pageSize = options.pageSize ?? 50;
  let url = '';

  /** One id per title and artist, as the service has one track for each. */
  function trackFor(input: FakeTrackInput): FakeTrack {
    const key = JSON.stringify([input.title, input.artist]);
    const known = tracks.get(key);
    if (known) return known;
    const track = { ...input, id: newId() };
    tracks.set(key, track);
    return track;
  }

  const artistObject = (name: string) => ({
    id: `artist-${Buffer.from(name).toString('hex').slice(0, 16)}`,
    name,
    type: 'artist',
    uri: `spotify:artist:${name}`,
  });

  function trackObject(track: FakeTrack) {
    return {
      id: track.id,
      type: 'track',
      uri: `spotify:track:${track.id}`,
      href: `${url}/tracks/${track.id}`,
      name: track.title,
      artists: [artistObject(track.artist)],
      album: {
        id: `album-${track.id}`,
        name: track.album ?? track.title,
        album_type: 'album',
        artists: [artistObject(track.artist)],
        images: [{ url: `${url}/images/${track.id}.jpg`, height: 640, width: 640 }],
      },
      duration_ms: track.durationMs ?? DEFAULT_DURATION_MS,
      external_ids: track.isrc ? { isrc: track.isrc } : {},
      external_urls: { spotify: `https://open.spotify.com/track/${track.id}` },
      track_number: 1,
      disc_number: 1,
      explicit: false,
      is_local: false,
    };
  }

  function playbackState() {
    return {
      timestamp: Date.now(),
      is_playing: player.playing,
      progress_ms: player.progress(),
      currently_playing_type: 'track',
      item: trackObject(player.current!),
    };
  }

  /** next/previous (and play with nothing loaded) go through every track the fake knows, in the order it learnt them. */
  function skip(step: 1 | -1): void {
    const all = [...tracks.values()];
    if (all.length === 0) return;
    const at = player.current ? all.findIndex((track) => track.id === player.current!.id) : -1;
    player.start(all[(at + step + all.length) % all.length]!, true);
  }

  function playerCommand(response: ServerResponse, action: string): void {
    if (player.device === null) return apiError(response, 404, 'Player command failed: No active device found', 'NO_ACTIVE_DEVICE');
    // The real service refuses to pause what is paused.
    if (action === 'pause' && !player.playing) return apiError(response, 403, 'Player command failed: Restriction violated', 'UNKNOWN');
    if (action === 'pause') player.setPlaying(false);
    else if (action === 'play' && player.current) player.setPlaying(true);
    else skip(action === 'previous' ? -1 : 1);
    response.writeHead(204).end();
  }

  function recentlyPlayed(response: ServerResponse, query: URLSearchParams): void {
    const limit = Math.min(Number(query.get('limit') ?? 20), 50);
    if (!Number.isInteger(limit) || limit < 1) return apiError(response, 400, 'Invalid limit');
    const after = query.get('after');
    const before = query.get('before');
    if (after !== null && before !== null) return apiError(response, 400, 'Only one of after and before may be given');
    const size = Math.min(limit, pageSize);
    // After a time the page holds the plays closest to it (paging forward); otherwise the latest before it (paging back).
    const matching =
      after !== null
        ? history.filter((play) => play.playedAt.getTime() > Number(after))
        : history.filter((play) => before === null || play.playedAt.getTime() < Number(before));
    const page = after !== null ? matching.slice(Math.max(0, matching.length - size)) : matching.slice(0, size);
    const more = matching.length > page.length;
    const newest = page[0]?.playedAt.getTime();
    const oldest = page.at(-1)?.playedAt.getTime();
    const next = !more
      ? null
      : after !== null
        ? `${url}/me/player/recently-played?after=${newest}&limit=${limit}`
        : `${url}/me/player/recently-played?before=${oldest}&limit=${limit}`;
    sendJson(response, 200, {
      href: `${url}/me/player/recently-played?${query}`,
      items: page.map((play) => ({ track: trackObject(play.track), played_at: play.playedAt.toISOString(), context: null })),
      limit,
      next,
      cursors: page.length === 0 ? null : { after: String(newest), before: String(oldest) },
      total: matching.length,
    });
  }

  async function handler(request: IncomingMessage, response: ServerResponse, requestUrl: URL): Promise<void> {
    if (await oauth.handle(request, response, requestUrl)) return;
    const account = oauth.authenticate(request);
    if (account === null) return apiError(response, 401, 'The access token expired');
    const route = `${request.method} ${requestUrl.pathname}`;
    const action = /^(PUT \/me\/player\/(pause|play)|POST \/me\/player\/(next|previous))$/.exec(route);
    if (action) return playerCommand(response, action[2] ?? action[3]!);
    switch (route) {
      case 'GET /me':
        return sendJson(response, 200, {
          id: account,
          display_name: account,
          email: `${account}@example.invalid`,
          type: 'user',
          uri: `spotify:user:${account}`,
        });
      case 'GET /me/player':
        if (player.device === null || player.current === null) return void response.writeHead(204).end();
        return sendJson(response, 200, {
          ...playbackState(),
          device: { id: 'fake-device', name: player.device, type: 'Speaker', is_active: true, volume_percent: 50 },
          shuffle_state: false,
          repeat_state: 'off',
        });
      case 'GET /me/player/currently-playing':
        if (player.device === null || player.current === null) return void response.writeHead(204).end();
        return sendJson(response, 200, playbackState());
      case 'GET /me/player/recently-played':
        return recentlyPlayed(response, requestUrl.searchParams);
    }
    apiError(response, 404, 'Service not found');
  }

  const server = await startFakeServer(handler, options.port ?? 0);
  url = server.url;
  return {
    server,
    oauth,
    url,
    config: fakeProviderConfig(oauth, url),
    addRecentPlay({ playedAt, ...track }) {
      const play = { track: trackFor(track), playedAt };
      const at = history.findIndex((other) => other.playedAt < playedAt);
      history.splice(at < 0 ? history.length : at, 0, play);
    },
    setDevice(name) {
      player.device = name;
    },
    setPlaying(track, isPlaying = true, progressMs = 0) {
      player.start(track && trackFor(track), isPlaying, progressMs);
    },
    get isPlaying() {
      return player.playing;
    },
    close: () => server.close(),
  };
}
