/**
 * Walks a music folder: every directory, every audio file with its size and modification time,
 * and each directory's folder image. Iterative (a deep tree never grows the JS stack), skipping
 * hidden entries and visiting each real directory once, so symbolic link loops end.
 *
 * The folder is a boundary (library/confined.ts): every entry is judged by its real path, and one
 * that really lies outside the root's real path (a symbolic link to a file or a directory
 * elsewhere, or inside a linked directory) is skipped with the reason LINKS_OUTSIDE. A link to
 * another place inside the folder is followed as before.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { IMAGE_SIGNATURE_BYTES, imageType } from '../../../toolkit/image-type.ts';
import { isInsideRoot } from '../confined.ts';
import { isAudioFile } from '../tags.ts';
import { SkipList } from './report.ts';

/** The skip reason of an entry whose real path leaves the music folder. */
export const LINKS_OUTSIDE = 'links outside the music folder';
/** The skip reason of a folder image whose bytes are no allowed image, whatever its name says. */
export const NOT_AN_IMAGE = 'not a JPEG, PNG, GIF, WebP or AVIF image';

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
  const realRoot = await realpath(root);
  const seen = new Set([realRoot]);
  // Breadth-first, so parents come before their children; each with its real path.
  const pending: PendingDirectory[] = [{ path: '', real: realRoot }];
  for (let next = 0; next < pending.length; next++) {
    const dir = pending[next]!;
    walk.directories.push(dir.path);
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, dir.path), { withFileTypes: true });
    } catch (error) {
      // An unreadable root (say, a drive gone away) must not read as a library emptied of music.
      if (dir.path === '') throw error;
      walk.skipped.add({ path: dir.path, reason: `directory cannot be read: ${(error as Error).message}` });
      continue;
    }
    const images: string[] = [];
    const visible = entries.filter((entry) => !entry.name.startsWith('.'));
    for (let at = 0; at < visible.length; at += STAT_CONCURRENCY) {
      await Promise.all(visible.slice(at, at + STAT_CONCURRENCY).map((entry) => visitEntry(root, dir, entry, { walk, realRoot, seen, pending, images })));
    }
    const best = await firstImage(
      root,
      dir.path,
      images.sort().sort((a, b) => folderImageRank(a) - folderImageRank(b)),
      walk.skipped,
    );
    if (best !== undefined) walk.folderImages.set(dir.path, childPath(dir.path, best));
  }
  walk.audio.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return walk;
}

/** The first of the folder image candidates (best first) whose bytes are an allowed image; the others read are skipped. */
async function firstImage(root: string, dir: string, candidates: string[], skipped: SkipList): Promise<string | undefined> {
  for (const name of candidates) {
    const path = childPath(dir, name);
    try {
      const handle = await open(join(root, path));
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(IMAGE_SIGNATURE_BYTES), 0, IMAGE_SIGNATURE_BYTES, 0);
        if (imageType(buffer.subarray(0, bytesRead))) return name;
      } finally {
        await handle.close();
      }
      skipped.add({ path, reason: NOT_AN_IMAGE });
    } catch (error) {
      skipped.add({ path, reason: `cannot be read: ${(error as Error).message}` });
    }
  }
  return undefined;
}

interface PendingDirectory {
  /** Relative to the root, '/'-separated. */
  path: string;
  /** Its real path: the walk reached it through links, if any, that stay inside the root. */
  real: string;
}

interface WalkState {
  walk: Walk;
  realRoot: string;
  seen: Set<string>;
  pending: PendingDirectory[];
  images: string[];
}

async function visitEntry(root: string, dir: PendingDirectory, entry: Dirent, state: WalkState): Promise<void> {
  const path = childPath(dir.path, entry.name);
  const absolute = join(root, path);
  try {
    // Where the entry really is: a link resolved; anything else is its directory's real path and its name.
    const real = entry.isSymbolicLink() ? await realpath(absolute) : join(dir.real, entry.name);
    if (!isInsideRoot(state.realRoot, real)) {
      state.walk.skipped.add({ path, reason: LINKS_OUTSIDE });
      return;
    }
    // A symbolic link counts as what it points to; stat follows it.
    const info = entry.isSymbolicLink() ? await stat(absolute) : entry;
    if (info.isDirectory()) {
      if (state.seen.has(real)) {
        state.walk.skipped.add({ path, reason: 'directory already scanned through another path (symbolic link)' });
        return;
      }
      state.seen.add(real);
      state.pending.push({ path, real });
    } else if (!info.isFile()) {
      state.walk.skipped.add({ path, reason: 'not a regular file' });
    } else if (isAudioFile(entry.name)) {
      const { size, mtimeMs } = await stat(absolute);
      state.walk.audio.push({ path, dir: dir.path, name: entry.name, size, modifiedMs: Math.floor(mtimeMs) });
    } else if (folderImageRank(entry.name) >= 0) {
      state.images.push(entry.name);
    } else {
      state.walk.skipped.add({ path, reason: 'not an audio file' });
    }
  } catch (error) {
    state.walk.skipped.add({ path, reason: `cannot be read: ${(error as Error).message}` });
  }
}
