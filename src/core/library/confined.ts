/**
 * The music folder is a boundary: a symbolic link inside it may point at another file of the
 * library, never at the rest of the disk (a `cover.jpg` linked to a secret would be served on the
 * public cover route). Paths are judged by where they really are (`realpath`, every link and `..`
 * resolved), against the root's own real path, never as text.
 *
 * Reading a file: its path is resolved and checked, then the resolved path is opened at once
 * (O_NOFOLLOW: its last component cannot have become a link since), and the opened file itself is
 * checked where the system tells which file a descriptor holds (Linux's /proc/self/fd): a directory
 * of the path swapped for a link between the check and the open is caught there. Elsewhere the
 * window between realpath and open remains, the accepted cost of a portable check. Every read then
 * goes through that one open handle, so what was checked is what is sent.
 */
import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative as relativePath, sep } from 'node:path';

/** Whether `real` (a real path) is the real root or below it. */
export function isInsideRoot(realRoot: string, real: string): boolean {
  const rel = relativePath(realRoot, real);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** realpath, or null when the path (or what a link in it points to) does not exist or cannot be resolved. */
async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

/** The real path of `relative` under `root`, or null when it is missing or really lies outside the root. */
export async function confinedRealPath(root: string, relative: string): Promise<string | null> {
  const realRoot = await realOrNull(root);
  if (realRoot === null) return null;
  const real = await realOrNull(join(root, relative));
  return real !== null && isInsideRoot(realRoot, real) ? real : null;
}

/** A regular file of the music folder, open for reading. Close it (or hand it to a stream that does). */
export interface ConfinedFile {
  handle: FileHandle;
  stat: Stats;
}

/** Which file a descriptor holds, where the system says (Linux); null elsewhere. */
async function openedPath(handle: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
}

/**
 * Opens `relative` under `root` for reading, or answers null when it is missing, not a regular
 * file, or really (through links) outside the root.
 */
export async function openConfined(root: string, relative: string): Promise<ConfinedFile | null> {
  // Independent lookups run together: each is a trip through libuv's thread pool, and a cover or a stream waits for them all.
  const [realRoot, real] = await Promise.all([realOrNull(root), realOrNull(join(root, relative))]);
  if (realRoot === null || real === null || !isInsideRoot(realRoot, real)) return null;
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO put in a file's place must not hang the request (it fails the isFile check below).
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const [opened, stat] = await Promise.all([openedPath(handle), handle.stat()]);
    if ((opened !== null && !isInsideRoot(realRoot, opened)) || !stat.isFile()) {
      await handle.close();
      return null;
    }
    return { handle, stat };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
