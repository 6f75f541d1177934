import { FILE_RESPONSE_HEADERS } from '../http/file-headers.ts';
import { openConfined, type ConfinedFile } from '../../core/library/confined.ts';
import { libraryNotFound } from '../../core/library/errors.ts';
import type { SubsonicBinary } from './method.ts';

/** A library file on this machine: only local sources have bytes here. */
export interface LocalFile {
  kind: string;
  root: string;
  path: string;
}

/**
 * The file opened for reading, or a "not found" failure: file-host sources are not on this disk,
 * and a path that is gone, not a regular file, or really (through `..` or symbolic links) outside
 * its source's root names nothing the library holds. See library/confined.ts for how it is checked.
 */
export async function openLocal(file: LocalFile): Promise<ConfinedFile> {
  if (file.kind !== 'local') throw libraryNotFound(`the file ${file.path} is in a file host, not on this server`);
  const opened = await openConfined(file.root, file.path);
  if (!opened) throw libraryNotFound(`no file ${file.path}`);
  return opened;
}

/** A byte range of a file of `size` bytes, or 'unsatisfiable', or null to send it whole (no or several ranges). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, first, last] = match;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    return length === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** The open file's bytes, whole or the requested range; the stream sent closes the file (so does every other answer). */
export async function fileBytes(
  file: ConfinedFile,
  contentType: string,
  range: string | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<SubsonicBinary> {
  const { handle, stat } = file;
  const headers = { 'accept-ranges': 'bytes', ...FILE_RESPONSE_HEADERS, ...extraHeaders };
  const wanted = parseRange(range, stat.size);
  if (wanted === 'unsatisfiable') {
    await handle.close();
    return { kind: 'binary', status: 416, contentType, headers: { ...headers, 'content-range': `bytes */${stat.size}` }, body: Buffer.alloc(0) };
  }
  if (wanted === null) {
    return {
      kind: 'binary',
      status: 200,
      contentType,
      headers: { ...headers, 'content-length': String(stat.size) },
      body: handle.createReadStream({ autoClose: true }),
    };
  }
  return {
    kind: 'binary',
    status: 206,
    contentType,
    headers: { ...headers, 'content-length': String(wanted.end - wanted.start + 1), 'content-range': `bytes ${wanted.start}-${wanted.end}/${stat.size}` },
    body: handle.createReadStream({ start: wanted.start, end: wanted.end, autoClose: true }),
  };
}
