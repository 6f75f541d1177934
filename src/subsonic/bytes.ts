import fs from 'node:fs';
import path from 'node:path';
import { libraryNotFound } from '../library/errors.ts';
import type { SubsonicBinary } from './method.ts';

/** A library file on this machine: only local sources have bytes here. */
export interface LocalFile {
  kind: string;
  root: string;
  path: string;
}

/**
 * The file's absolute path, or a "not found" failure: file-host sources are not on this disk, and
 * a stored path that would leave its source's root (`..`) names nothing the library holds.
 */
export function localPath(file: LocalFile): string {
  if (file.kind !== 'local') throw libraryNotFound(`the file ${file.path} is in a file host, not on this server`);
  const root = path.resolve(file.root);
  const absolute = path.resolve(root, file.path);
  if (absolute !== root && !absolute.startsWith(root + path.sep)) throw libraryNotFound(`no file ${file.path}`);
  return absolute;
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

/** The file's bytes, whole or the requested range; a file gone from disk is "not found". */
export async function fileBytes(absolute: string, contentType: string, range: string | undefined, extraHeaders: Record<string, string> = {}): Promise<SubsonicBinary> {
  const stat = await fs.promises.stat(absolute).catch(() => null);
  if (!stat?.isFile()) throw libraryNotFound('the file is missing on disk');
  const headers = { 'accept-ranges': 'bytes', ...extraHeaders };
  const wanted = parseRange(range, stat.size);
  if (wanted === 'unsatisfiable') {
    return { kind: 'binary', status: 416, contentType, headers: { ...headers, 'content-range': `bytes */${stat.size}` }, body: Buffer.alloc(0) };
  }
  if (wanted === null) {
    return { kind: 'binary', status: 200, contentType, headers: { ...headers, 'content-length': String(stat.size) }, body: fs.createReadStream(absolute) };
  }
  return {
    kind: 'binary',
    status: 206,
    contentType,
    headers: { ...headers, 'content-length': String(wanted.end - wanted.start + 1), 'content-range': `bytes ${wanted.start}-${wanted.end}/${stat.size}` },
    body: fs.createReadStream(absolute, { start: wanted.start, end: wanted.end }),
  };
}
