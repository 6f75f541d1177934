import { encodeTestTrack, testJpeg, type TestFormat } from '../src/core/library/test-music.ts';

const FORMATS: TestFormat[] = ['mp3', 'flac', 'ogg'];
export const TRACKS_PER_ALBUM = 12;
const ALBUMS_PER_ARTIST = 4;

/**
 * A music collection of `count` one-second files with distinct tags, as relative paths and
 * bytes: albums of 12 songs, 4 albums an artist, formats in turn, a cover image in every album
 * folder.
 */
export function generatedMusic(count: number): { path: string; bytes: Uint8Array }[] {
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (let i = 0; i < count; i++) {
    const album = Math.floor(i / TRACKS_PER_ALBUM);
    const artist = Math.floor(album / ALBUMS_PER_ARTIST);
    const format = FORMATS[i % FORMATS.length]!;
    const folder = `Artist ${artist}/Album ${album}`;
    const { bytes } = encodeTestTrack(
      format,
      {
        title: `Song ${i}`,
        artist: `Bench Artist ${artist}`,
        album: `Bench Album ${album}`,
        trackNumber: (i % TRACKS_PER_ALBUM) + 1,
        year: 1960 + (album % 60),
        genre: `Genre ${album % 20}`,
      },
      1000,
    );
    files.push({ path: `${folder}/${String((i % TRACKS_PER_ALBUM) + 1).padStart(2, '0')} Song ${i}.${format}`, bytes });
    if (i % TRACKS_PER_ALBUM === 0) files.push({ path: `${folder}/cover.jpg`, bytes: testJpeg(folder) });
  }
  return files;
}
