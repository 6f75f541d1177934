import type { SubsonicMethod } from './method.ts';
import { getAlbum, getArtist, getArtists, getSong } from './methods/id3.ts';
import { getAlbumInfo, getAlbumInfo2, getArtistInfo, getArtistInfo2 } from './methods/info.ts';
import { getIndexes, getMusicDirectory, getMusicFolders } from './methods/folders.ts';
import { getAlbumList, getAlbumList2, getGenres, getRandomSongs, getSongsByGenre } from './methods/lists.ts';
import { download, getCoverArt, getLyricsBySongId, stream } from './methods/media.ts';
import { getScanStatus, startScan } from './methods/scan.ts';
import { search2, search3 } from './methods/search.ts';
import { libraryStateMethods } from './methods/state.ts';
import { getLicense, getUser, ping } from './methods/system.ts';

/** Every Subsonic method this server answers for a signed-in user (the public ones: methods/system.ts). */
export const subsonicMethods: readonly SubsonicMethod[] = [
  ping,
  getLicense,
  getUser,
  getMusicFolders,
  getIndexes,
  getMusicDirectory,
  getArtists,
  getArtist,
  getAlbum,
  getSong,
  getArtistInfo,
  getArtistInfo2,
  getAlbumInfo,
  getAlbumInfo2,
  getAlbumList,
  getAlbumList2,
  getRandomSongs,
  getGenres,
  getSongsByGenre,
  search2,
  search3,
  stream,
  download,
  getCoverArt,
  getLyricsBySongId,
  startScan,
  getScanStatus,
  ...libraryStateMethods,
];
