import { csvRows } from './csv.ts';
import { lastfmLayout, lastfmRecord } from './lastfm.ts';
import type { ImportFormat } from './schemas.ts';

/** What the start of a file shows it to be: an export format, or a zip archive of exports. */
export type DetectedKind = ImportFormat | 'zip';

/** A local file header, or the end record of an empty archive: "PK" and two bytes. */
const ZIP_MAGIC = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
];

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

/**
 * The kind of export whose first bytes (64 KiB are plenty) these are, or undefined when nothing known fits.
 * Pure, so the web app's import tells files apart as `earshot import` does.
 */
export async function detectKind(head: Uint8Array): Promise<DetectedKind | undefined> {
  if (ZIP_MAGIC.some((magic) => magic.every((byte, i) => head[i] === byte))) return 'zip';
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
