import fs from 'node:fs/promises';
import { csvRows } from './csv.ts';
import { lastfmLayout, lastfmRecord } from './lastfm.ts';
import type { ImportFormat } from './schemas.ts';

/** What the start of a file shows it to be: an export format, or a zip archive of exports. */
export type DetectedKind = ImportFormat | 'zip';

/** Enough of a file to see its first record, header or magic bytes. */
const HEAD_BYTES = 64 * 1024;
/** A local file header, or the end record of an empty archive. */
const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

/** What detection looks for, for the error that names what was tried. */
export const DETECTION_TRIED =
  'zip archive (PK magic bytes), #AUDIOSCROBBLER first line (scrobbler-log), JSON with "listened_at"/"track_metadata" (listenbrainz), ' +
  '"recenttracks" (lastfm), "scrobbles" (maloja), "ms_played"/"msPlayed" (spotify), or a Last.fm CSV header or row (lastfm)';

/**
 * The first telling key of JSON text, in file order: the first record's keys
 * come before anything nested deep in it. A quote after a backslash is inside
 * a string, not a key.
 */
const TELLING_KEY = /(?<!\\)"(listened_at|track_metadata|recenttracks|scrobbles|ms_played|msPlayed)"\s*:/;
const FORMAT_OF_KEY: Record<string, ImportFormat> = {
  listened_at: 'listenbrainz',
  track_metadata: 'listenbrainz',
  recenttracks: 'lastfm',
  scrobbles: 'maloja',
  ms_played: 'spotify',
  msPlayed: 'spotify',
};

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** A Last.fm CSV: its header row, or a first row that reads as a headerless scrobble. */
async function isLastfmCsv(text: string): Promise<boolean> {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  try {
    for await (const row of csvRows(once(firstLine))) {
      const layout = lastfmLayout(row);
      return layout.hasHeader || 'listen' in lastfmRecord(row, layout);
    }
  } catch {
    // A first line that is not even CSV.
  }
  return false;
}

/** The kind of export whose first bytes these are, or undefined when nothing known fits. */
export async function detectKind(head: Buffer): Promise<DetectedKind | undefined> {
  if (ZIP_MAGIC.some((magic) => head.subarray(0, 4).equals(magic))) return 'zip';
  const text = new TextDecoder('utf-8')
    .decode(head)
    .replace(/^\ufeff/, '')
    .trimStart();
  if (/^#AUDIOSCROBBLER\//i.test(text)) return 'scrobbler-log';
  if (text.startsWith('{') || text.startsWith('[')) {
    const key = TELLING_KEY.exec(text)?.[1];
    return key ? FORMAT_OF_KEY[key] : undefined;
  }
  return (await isLastfmCsv(text)) ? 'lastfm' : undefined;
}

/** The first bytes of a file, for detectKind. */
export async function fileHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
