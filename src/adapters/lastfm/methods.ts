import { getMobileSession, getSession, getToken } from './auth-methods.ts';
import {
  getTopAlbums,
  getTopArtists,
  getTopTracks,
  getWeeklyAlbumChart,
  getWeeklyArtistChart,
  getWeeklyChartList,
  getWeeklyTrackChart,
} from './chart-methods.ts';
import { invalidMethod, invalidService } from './errors.ts';
import { getAlbumInfo, getArtistInfo, getTrackInfo } from './info-methods.ts';
import { removeScrobble } from './library-methods.ts';
import { love, unlove } from './love.ts';
import type { LastfmMethod } from './method.ts';
import { nowPlaying, scrobble } from './track-methods.ts';
import { getInfo, getLovedTracks, getRecentTracks } from './user-methods.ts';

/** Every Last.fm method this server answers. */
export const METHODS: readonly LastfmMethod[] = [
  ...[getToken, getSession, getMobileSession],
  ...[scrobble, nowPlaying, love, unlove, removeScrobble],
  ...[getInfo, getRecentTracks, getLovedTracks, getTopArtists, getTopAlbums, getTopTracks],
  ...[getWeeklyChartList, getWeeklyArtistChart, getWeeklyAlbumChart, getWeeklyTrackChart],
  ...[getTrackInfo, getArtistInfo, getAlbumInfo],
];

const byName = new Map(METHODS.map((method) => [method.name.toLowerCase(), method]));
const packages = new Set(METHODS.map((method) => method.name.split('.')[0]!.toLowerCase()));

/** Last.fm tells an unknown package (error 2) from an unknown method in a known one (error 3). */
export function findMethod(name: string | undefined): LastfmMethod {
  if (!name) throw invalidMethod('No method given');
  const method = byName.get(name.toLowerCase());
  if (method) return method;
  if (!packages.has(name.split('.')[0]!.toLowerCase())) throw invalidService('This service does not exist');
  throw invalidMethod('No method with that name in this package');
}
