import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTracks } from '../../core/catalog/resolve.ts';
import type { TrackMetadata } from '../../core/catalog/track-metadata.ts';
import { inTransaction, type Database } from '../../toolkit/db/index.ts';
import { encodeTestTrack, testPng, type TestFormat, type TestTags } from '../../core/library/test-music.ts';
import { TAG_READER_VERSION } from '../../core/library/tags.ts';

/**
 * A small music library for Subsonic tests: valid MP3, FLAC and Ogg files (library/test-music.ts)
 * in a temporary folder, recorded straight into the library tables (the scanner's own tests cover
 * reading tags; these cover serving them).
 */

/** The picture embedded in tags and written as the folder image. */
export const COVER = Buffer.from(testPng('cover'));

const CONTENT_TYPES: Record<TestFormat, string> = { mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg' };

/** The file's tags, from the catalog metadata it should match. */
function tagsOf(song: TestSong): TestTags {
  const { metadata } = song;
  return {
    title: metadata.title,
    artist: metadata.artist,
    album: metadata.album,
    albumArtist: metadata.albumArtist,
    trackNumber: metadata.trackNumber,
    discNumber: metadata.discNumber,
    genre: metadata.genre,
    year: metadata.year,
    lyrics: metadata.lyrics,
    picture: song.picture ? { mime: 'image/png', data: COVER } : undefined,
  };
}

export interface TestSong {
  /** Relative to the source root; the extension names the format. */
  path: string;
  metadata: TrackMetadata;
  picture?: boolean;
  /** A folder image beside the file, relative to the source root. */
  folderImage?: string;
}

export interface TestLibrary {
  root: string;
  sourceId: number;
  /** Directory ids by relative path ('' is the root). */
  directories: Map<string, string>;
  /** Track ids by file path. */
  tracks: Map<string, string>;
  remove(): void;
}

export const DEFAULT_SONGS: TestSong[] = [
  {
    path: 'The Alpha Band/First Album/01 Opening.mp3',
    picture: true,
    metadata: {
      artist: 'The Alpha Band',
      title: 'Opening',
      album: 'First Album',
      albumArtist: 'The Alpha Band',
      trackNumber: 1,
      discNumber: 1,
      genre: 'Rock',
      year: 2001,
      durationMs: 200_000,
      lyrics: 'First line\nSecond line',
    },
  },
  {
    path: 'The Alpha Band/First Album/02 Second Song.flac',
    picture: true,
    metadata: {
      artist: 'The Alpha Band',
      title: 'Second Song',
      album: 'First Album',
      albumArtist: 'The Alpha Band',
      trackNumber: 2,
      discNumber: 1,
      genre: 'Rock',
      year: 2001,
      durationMs: 180_000,
    },
  },
  {
    path: 'Beta/Blue Record/2-01 Green.ogg',
    folderImage: 'Beta/Blue Record/cover.png',
    metadata: {
      artist: 'Beta',
      title: 'Green',
      album: 'Blue Record',
      albumArtist: 'Beta',
      trackNumber: 1,
      discNumber: 2,
      genre: 'Jazz',
      year: 1995,
      durationMs: 240_000,
    },
  },
  {
    path: 'Beta/Blue Record/1-01 Blue.mp3',
    folderImage: 'Beta/Blue Record/cover.png',
    metadata: {
      artist: 'Beta',
      title: 'Blue',
      album: 'Blue Record',
      albumArtist: 'Beta',
      trackNumber: 1,
      discNumber: 1,
      genre: 'Jazz',
      year: 1995,
      durationMs: 210_000,
    },
  },
  {
    path: 'Loose Track.mp3',
    metadata: { artist: 'Gamma', title: 'Loose Track', album: 'Singles', albumArtist: 'Gamma', genre: 'Pop', year: 2020, durationMs: 150_000 },
  },
];

async function insertDirectory(db: Database, sourceId: number, userId: string | null, directories: Map<string, string>, relative: string): Promise<string> {
  const known = directories.get(relative);
  if (known) return known;
  const parentPath = relative === '' ? null : path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative);
  const parentId = parentPath === null ? null : await insertDirectory(db, sourceId, userId, directories, parentPath);
  const row = await db
    .insertInto('library_directories')
    .values({ source_id: sourceId, user_id: userId, parent_id: parentId, name: relative === '' ? '' : path.posix.basename(relative), path: relative })
    .returning('id')
    .executeTakeFirstOrThrow();
  directories.set(relative, row.id);
  return row.id;
}

/** Writes the songs under a new temporary root and records them as one local source (server-wide unless `userId`). */
export async function createTestLibrary(
  db: Database,
  songs: TestSong[] = DEFAULT_SONGS,
  options: { userId?: string; name?: string } = {},
): Promise<TestLibrary> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
  const userId = options.userId ?? null;
  const source = await db
    .insertInto('library_sources')
    .values({ kind: 'local', user_id: userId, name: options.name ?? 'Music', root })
    .returning('id')
    .executeTakeFirstOrThrow();
  const resolved = await inTransaction(db, (tx) =>
    resolveTracks(
      tx,
      songs.map((song) => song.metadata),
      true,
    ),
  );
  const directories = new Map<string, string>();
  const tracks = new Map<string, string>();
  for (const [index, song] of songs.entries()) {
    const absolute = path.join(root, song.path);
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    const format = path.extname(song.path).slice(1) as TestFormat;
    const { bytes } = encodeTestTrack(format, tagsOf(song), song.metadata.durationMs);
    fs.writeFileSync(absolute, bytes);
    if (song.folderImage) fs.writeFileSync(path.join(root, song.folderImage), COVER);
    const directory = path.posix.dirname(song.path) === '.' ? '' : path.posix.dirname(song.path);
    const trackId = resolved[index]!.trackId;
    tracks.set(song.path, trackId);
    await db
      .insertInto('library_files')
      .values({
        source_id: source.id,
        user_id: userId,
        directory_id: await insertDirectory(db, source.id, userId, directories, directory),
        name: path.posix.basename(song.path),
        path: song.path,
        track_id: trackId,
        size: bytes.length,
        modified_at: new Date(),
        content_type: CONTENT_TYPES[format],
        tag_reader: TAG_READER_VERSION,
        suffix: format,
        bit_rate: 128,
        duration_ms: song.metadata.durationMs ?? null,
        year: song.metadata.year ?? null,
        cover: song.picture ? 'embedded' : (song.folderImage ?? null),
      })
      .execute();
  }
  return { root, sourceId: source.id, directories, tracks, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
