/**
 * Walks a music folder: every directory, every audio file with its size and modification time,
 * and each directory's folder image. Iterative (a deep tree never grows the JS stack), skipping
 * hidden entries and visiting each real directory once, so symbolic link loops end.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isAudioFile } from '../tags.ts';
import { SkipList } from './report.ts';

export interface WalkedFile {
  /** Relative to the root, '/'-separated. */
  path: string;
  /** The containing directory's relative path ('' for the root). */
  dir: string;
  name: string;
  size: number;
  /** Whole milliseconds, as a timestamp column keeps them. */
  modifiedMs: number;
  /** File hosts: the provider's id of the file and its own two times. */
  fileId?: string | undefined;
  clientModified?: Date | undefined;
  serverModified?: Date | undefined;
}

export interface Walk {
  /** Relative paths of every directory reached, the root ('') first, parents before children. */
  directories: string[];
  audio: WalkedFile[];
  /** Per directory path, its folder image's relative path. */
  folderImages: Map<string, string>;
  /** File hosts: per directory path, the provider's id of the folder. */
  folderIds: Map<string, string>;
  skipped: SkipList;
}

/** Folder image names in order of preference, without extension; matched case-insensitively. */
const FOLDER_IMAGE_NAMES = ['cover', 'folder', 'front', 'album', 'albumart', 'albumartlarge', 'albumartsmall'];
const FOLDER_IMAGE_TYPES = ['jpg', 'jpeg', 'png', 'webp', 'gif'];

/** Preference rank of a folder image name, or -1 for any other file. */
function folderImageRank(name: string): number {
  const match = /^(.*)\.([^.]+)$/.exec(name.toLowerCase());
  if (!match || !FOLDER_IMAGE_TYPES.includes(match[2]!)) return -1;
  return FOLDER_IMAGE_NAMES.indexOf(match[1]!);
}

/** Entries of one directory stat-ed at a time: enough to keep the disk busy, few enough file handles. */
const STAT_CONCURRENCY = 32;

function childPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export async function walkTree(root: string): Promise<Walk> {
  const walk: Walk = { directories: [], audio: [], folderImages: new Map(), folderIds: new Map(), skipped: new SkipList() };
  const seen = new Set([await realpath(root)]);
  // Breadth-first, so parents come before their children.
  const pending = [''];
  for (let next = 0; next < pending.length; next++) {
    const dir = pending[next]!;
    walk.directories.push(dir);
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch (error) {
      // An unreadable root (say, a drive gone away) must not read as a library emptied of music.
      if (dir === '') throw error;
      walk.skipped.add({ path: dir, reason: `directory cannot be read: ${(error as Error).message}` });
      continue;
    }
    const images: string[] = [];
    const visible = entries.filter((entry) => !entry.name.startsWith('.'));
    for (let at = 0; at < visible.length; at += STAT_CONCURRENCY) {
      await Promise.all(
        visible.slice(at, at + STAT_CONCURRENCY).map((entry) => visitEntry(root, dir, entry, { walk, seen, pending, images })),
      );
    }
    const best = images.sort().sort((a, b) => folderImageRank(a) - folderImageRank(b))[0];
    if (best !== undefined) walk.folderImages.set(dir, childPath(dir, best));
  }
  walk.audio.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return walk;
}

interface WalkState {
  walk: Walk;
  seen: Set<string>;
  pending: string[];
  images: string[];
}

async function visitEntry(root: string, dir: string, entry: Dirent, state: WalkState): Promise<void> {
  const path = childPath(dir, entry.name);
  const absolute = join(root, path);
  try {
    // A symbolic link counts as what it points to; stat follows it.
    const info = entry.isSymbolicLink() ? await stat(absolute) : entry;
    if (info.isDirectory()) {
      const real = await realpath(absolute);
      if (state.seen.has(real)) {
        state.walk.skipped.add({ path, reason: 'directory already scanned through another path (symbolic link)' });
        return;
      }
      state.seen.add(real);
      state.pending.push(path);
    } else if (!info.isFile()) {
      state.walk.skipped.add({ path, reason: 'not a regular file' });
    } else if (isAudioFile(entry.name)) {
      const { size, mtimeMs } = await stat(absolute);
      state.walk.audio.push({ path, dir, name: entry.name, size, modifiedMs: Math.floor(mtimeMs) });
    } else if (folderImageRank(entry.name) >= 0) {
      state.images.push(entry.name);
    } else {
      state.walk.skipped.add({ path, reason: 'not an audio file' });
    }
  } catch (error) {
    state.walk.skipped.add({ path, reason: `cannot be read: ${(error as Error).message}` });
  }
}
