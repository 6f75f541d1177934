/**
 * Reads zip archives in the browser, an entry at a time: the central directory from the end of the
 * file, then each wanted entry inflated with the browser's own DecompressionStream and checked
 * against the CRC-32 the archive records, so a damaged entry fails whole before any of it is used.
 * Enough for the exports people import (ListenBrainz, Spotify, Earshot's own); ZIP64 archives (over
 * 4 GiB) and encrypted entries are refused with a reason.
 */
import { MAX_ZIP_ENTRIES } from '../../../../src/core/scrobbling/imports/entries.ts';

export interface ZipEntry {
  name: string;
  encrypted: boolean;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipReadError extends Error {}

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_RECORD = 22;
const MAX_COMMENT = 0xffff;

const bytesOf = async (blob: Blob, start: number, end: number) => new DataView(await blob.slice(start, end).arrayBuffer());

/** The archive's entries as its central directory lists them, directories left out. */
export async function zipEntries(zip: Blob): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, zip.size - END_RECORD - MAX_COMMENT);
  const tail = await bytesOf(zip, tailStart, zip.size);
  let end = tail.byteLength - END_RECORD;
  while (end >= 0 && tail.getUint32(end, true) !== END_SIGNATURE) end--;
  if (end < 0) throw new ZipReadError('not a readable zip archive (no end of central directory)');
  const count = tail.getUint16(end + 10, true);
  const directorySize = tail.getUint32(end + 12, true);
  const directoryOffset = tail.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) throw new ZipReadError('a ZIP64 archive, which the browser does not read: use earshot import');
  if (count > MAX_ZIP_ENTRIES) throw new ZipReadError(`the archive lists ${count} entries, more than the ${MAX_ZIP_ENTRIES} an export archive may hold`);
  if (directoryOffset + directorySize > zip.size) throw new ZipReadError("the archive's directory is damaged");
  const directory = await bytesOf(zip, directoryOffset, directoryOffset + directorySize);
  const names = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  for (let at = 0, i = 0; i < count; i++) {
    if (at + 46 > directory.byteLength || directory.getUint32(at, true) !== ENTRY_SIGNATURE) throw new ZipReadError("the archive's directory is damaged");
    const nameLength = directory.getUint16(at + 28, true);
    const name = names.decode(new Uint8Array(directory.buffer, directory.byteOffset + at + 46, nameLength));
    if (!name.endsWith('/')) {
      entries.push({
        name,
        encrypted: (directory.getUint16(at + 8, true) & 1) === 1,
        method: directory.getUint16(at + 10, true),
        crc32: directory.getUint32(at + 16, true),
        compressedSize: directory.getUint32(at + 20, true),
        size: directory.getUint32(at + 24, true),
        localHeaderOffset: directory.getUint32(at + 42, true),
      });
    }
    at += 46 + nameLength + directory.getUint16(at + 30, true) + directory.getUint16(at + 32, true);
  }
  return entries;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** Continues a CRC-32 (as zip records it) over more bytes; start with 0. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** An entry's content, inflated and checked against its size and CRC-32. */
export async function zipEntryContent(zip: Blob, entry: ZipEntry): Promise<Blob> {
  const damaged = (why: string) => new ZipReadError(`${entry.name}: the entry is damaged (${why})`);
  if (entry.encrypted) throw new ZipReadError(`${entry.name}: the entry is encrypted`);
  if (entry.method !== 0 && entry.method !== 8)
    throw new ZipReadError(`${entry.name}: compressed with method ${entry.method}, which the browser does not read`);
  const local = await bytesOf(zip, entry.localHeaderOffset, entry.localHeaderOffset + 30);
  if (local.byteLength < 30 || local.getUint32(0, true) !== LOCAL_SIGNATURE) throw damaged('no local header');
  const start = entry.localHeaderOffset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  const stored = zip.slice(start, start + entry.compressedSize).stream();
  const content = entry.method === 8 ? stored.pipeThrough(new DecompressionStream('deflate-raw')) : stored;
  const pieces: Uint8Array[] = [];
  let crc = 0;
  let size = 0;
  try {
    const reader = content.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      crc = crc32(next.value, crc);
      size += next.value.length;
      pieces.push(next.value);
    }
  } catch (error) {
    throw damaged(error instanceof Error ? error.message : String(error));
  }
  if (size !== entry.size) throw damaged(`${size} bytes where the directory says ${entry.size}`);
  if (crc !== entry.crc32 >>> 0) throw damaged('its CRC-32 does not match');
  return new Blob(pieces as BlobPart[]);
}
