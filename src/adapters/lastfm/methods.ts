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
import { getLibraryArtists, removeScrobble } from './library-methods.ts';
import { love, unlove } from './love.ts';
import type { LastfmMethod } from './method.ts';
import { nowPlaying, scrobble } from './track-methods.ts';
import { getInfo, getLovedTracks, getRecentTracks, getTrackScrobbles } from './user-methods.ts';
import { getArtistTopAlbums, getArtistTopTracks } from './artist-methods.ts';
import { getArtistCorrection, getTrackCorrection } from './correction-methods.ts';
import { getTagTopArtists } from './tag-methods.ts';

/** Every Last.fm method this server answers. */
export const METHODS: readonly LastfmMethod[] = [
  ...[getToken, getSession, getMobileSession],
  ...[scrobble, nowPlaying, love, unlove, removeScrobble],
  ...[getInfo, getRecentTracks, getLovedTracks, getTrackScrobbles, getTopArtists, getTopAlbums, getTopTracks, getLibraryArtists],
  ...[getWeeklyChartList, getWeeklyArtistChart, getWeeklyAlbumChart, getWeeklyTrackChart],
  ...[getTrackInfo, getArtistInfo, getAlbumInfo, getArtistTopTracks, getArtistTopAlbums, getTagTopArtists],
  ...[getTrackCorrection, getArtistCorrection],
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
