/**
 * Which files of a folder and which entries of a zip archive hold listens, and in what order. Pure (no
 * Node module), so the command line (plan.ts, sources.ts) and the web app's import pick the same ones.
 */
import type { ImportFormat } from './schemas.ts';

/** The entries of the archives ListenBrainz, Spotify and Earshot hand out that hold listens; the rest (feedback, user data, podcasts, videos) are left alone. */
const ZIP_ENTRIES: { pattern: RegExp; format: ImportFormat }[] = [
  { pattern: /(^|\/)listens\/.+\.jsonl$/i, format: 'listenbrainz' },
  { pattern: /(^|\/)StreamingHistory_music_\d+\.json$/i, format: 'spotify' },
  { pattern: /(^|\/)StreamingHistory\d+\.json$/i, format: 'spotify' },
  { pattern: /(^|\/)Streaming_History_Audio_[^/]*\.json$/i, format: 'spotify' },
  { pattern: /(^|\/)endsong_\d+\.json$/i, format: 'spotify' },
];

export const ZIP_ENTRIES_LOOKED_FOR = 'listens/**.jsonl, StreamingHistory_music_*.json, StreamingHistory*.json, Streaming_History_Audio_*.json, endsong_*.json';

/** The format of an archive entry that holds listens, by its path in the archive; undefined for any other entry. */
export const zipEntryFormat = (name: string): ImportFormat | undefined => ZIP_ENTRIES.find(({ pattern }) => pattern.test(name))?.format;

/**
 * The most entries an archive may list. Every entry's directory record is held while the archive is
 * imported, so a forged directory of millions would exhaust memory; real exports hold a few hundred
 * (ListenBrainz: one file a month) or a few dozen (Spotify).
 */
export const MAX_ZIP_ENTRIES = 10_000;

/** Path order as people read it: listens/2024/2.jsonl before listens/2024/10.jsonl. */
export const naturalOrder = new Intl.Collator('en', { numeric: true }).compare;

/** What a folder walk considers; anything else (audio, images) is not even opened. */
const EXPORT_EXTENSIONS = ['.json', '.jsonl', '.csv', '.tsv', '.txt', '.log', '.zip'];

/** Whether a folder's file is one a walk looks at, by its name's extension. */
export const isExportFileName = (name: string): boolean => EXPORT_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension));
