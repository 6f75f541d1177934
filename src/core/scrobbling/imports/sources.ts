import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { crc32 } from 'node:zlib';
import * as yauzl from 'yauzl';
import { MAX_ZIP_ENTRIES, naturalOrder, zipEntryFormat } from './entries.ts';
import type { ImportFormat } from './schemas.ts';

/** One file's worth of records to import: a file, or one entry of a zip archive. */
export interface ImportSource {
  /** What the user calls it: the file's path, or the archive's path and the entry's name. */
  label: string;
  /** Bytes of its content (an entry's uncompressed size), for progress. */
  bytes: number;
  /** Its content from the start, read as a stream each time. */
  open(): AsyncIterable<Buffer>;
  /** Its sourceFingerprint, when already taken (a zip entry's, when its archive was verified). */
  fingerprint?: string;
}

const READ_CHUNK = 256 * 1024;

export function fileSource(file: string): ImportSource {
  return { label: file, bytes: fs.statSync(file).size, open: () => fs.createReadStream(file, { highWaterMark: READ_CHUNK }) };
}

/**
 * The SHA-256 of a source's content: what its checkpoint is known by. An
 * entry's content hashes as the same file unzipped would, so importing the
 * file after the archive (or the other way round) finds the same checkpoint.
 */
export async function sourceFingerprint(source: ImportSource): Promise<string> {
  const hash = createHash('sha256');
  for await (const buffer of source.open()) hash.update(buffer);
  return hash.digest('hex');
}

/** An archive, or an entry of one, that cannot be read: found before any of that entry is sent. */
export class ZipError extends Error {}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens a zip archive for reading its directory and entries; tests count the opens through it. */
export type ZipOpener = (file: string) => Promise<yauzl.ZipFile>;

export const openZipFile: ZipOpener = (file) => yauzl.openPromise(file, { autoClose: false });

async function openZip(file: string, open: ZipOpener): Promise<yauzl.ZipFile> {
  try {
    return await open(file);
  } catch (error) {
    throw new ZipError(`${file}: not a readable zip archive (${reason(error)})`);
  }
}

/** The archive's entries as its central directory lists them (a few hundred bytes each). */
async function listEntries(zip: yauzl.ZipFile, file: string): Promise<yauzl.Entry[]> {
  if (zip.entryCount > MAX_ZIP_ENTRIES) {
    throw new ZipError(`${file}: the archive lists ${zip.entryCount} entries, more than the ${MAX_ZIP_ENTRIES} an export archive may hold`);
  }
  const entries: yauzl.Entry[] = [];
  try {
    for await (const entry of zip.eachEntry()) entries.push(entry);
  } catch (error) {
    throw new ZipError(`${file}: the archive's directory is damaged (${reason(error)})`);
  }
  return entries;
}

/**
 * An entry's content, streamed from the archive's one open handle and checked against the CRC-32
 * the archive records for it (yauzl checks the size only), so a damaged entry fails as a whole when
 * it is fingerprinted, before any of it is imported.
 */
async function* entryContent(zip: yauzl.ZipFile, entry: yauzl.Entry, label: string): AsyncGenerator<Buffer> {
  let crc = 0;
  try {
    for await (const buffer of await zip.openReadStreamPromise(entry)) {
      crc = crc32(buffer as Buffer, crc);
      yield buffer as Buffer;
    }
  } catch (error) {
    throw new ZipError(`${label}: the entry is damaged (${reason(error)})`);
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new ZipError(`${label}: the entry is damaged (its CRC-32 does not match)`);
}

export interface ZipMember {
  source: ImportSource;
  format: ImportFormat;
}

/** An archive open for the whole import: its entries that hold listens, read from one file handle. */
export interface ZipArchive {
  /** The entries that hold listens, in path order, each with its format. */
  members: ZipMember[];
  /** Closes the handle (entries still being read finish first); the members cannot be read after. */
  close(): void;
}

/**
 * Opens an archive once and reads its central directory once: each member streams from that
 * handle, so an archive of n entries costs one open and one listing, not one of each per entry.
 */
export async function openZipArchive(file: string, open: ZipOpener = openZipFile): Promise<ZipArchive> {
  const zip = await openZip(file, open);
  try {
    const members = (await listEntries(zip, file)).flatMap((entry): (ZipMember & { name: string })[] => {
      const format = zipEntryFormat(entry.fileName);
      if (!format) return [];
      if (entry.isEncrypted()) throw new ZipError(`${file}/${entry.fileName}: the entry is encrypted`);
      const label = `${file}/${entry.fileName}`;
      return [{ name: entry.fileName, format, source: { label, bytes: entry.uncompressedSize, open: () => entryContent(zip, entry, label) } }];
    });
    members.sort((a, b) => naturalOrder(a.name, b.name));
    return { members: members.map(({ source, format }) => ({ source, format })), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/**
 * The members with every one read through before any is imported: inflated and checked against
 * its CRC-32 (entryContent), streamed, in constant memory. A damaged one refuses the whole
 * archive, so none of it is half-stored; entries that hold no listens (feedback, video history)
 * are never imported and not read. The read is the one that fingerprints each entry, which
 * runImport then takes instead of reading the entry again: the check adds no pass.
 */
export async function verifiedMembers(members: readonly ZipMember[]): Promise<ZipMember[]> {
  const verified: ZipMember[] = [];
  for (const member of members) {
    const fingerprint = await sourceFingerprint(member.source).catch((error: unknown) => {
      throw error instanceof ZipError ? new ZipError(`${error.message}; nothing was imported`) : error;
    });
    verified.push({ ...member, source: { ...member.source, fingerprint } });
  }
  return verified;
}
