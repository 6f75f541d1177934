/**
 * Reads an audio file's tags into the catalog's TrackMetadata, bounded by the same rules every
 * scrobble meets: a value over a limit is cut (names) or dropped (identifiers, numbers), so any
 * file a tag editor can write is storable and never fails a scan.
 */
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseFile, parseFromTokenizer, parseWebStream, type IAudioMetadata } from 'music-metadata';
import { artistCredit, isrcOrUndefined, mbidOrUndefined, type TrackMetadata } from '../catalog/track-metadata.ts';
import { imageType } from '../../toolkit/image-type.ts';
import { metadataProblem } from '../scrobbling/listen-rules.ts';
import { MAX_DURATION_MS, MAX_GENRE_LENGTH, MAX_INT4, MAX_NAME_LENGTH, MAX_TAG_LENGTH, longerThan } from '../catalog/field-rules.ts';

/** Lyrics longer than this are cut: a song's words, not a book. */
export const MAX_LYRICS_LENGTH = 32_768;
/** What a file without an artist tag is filed under. */
export const UNKNOWN_ARTIST = 'Unknown Artist';

/** Audio file types by extension, with the MIME type clients are told. */
export const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  aif: 'audio/aiff',
  aiff: 'audio/aiff',
  wma: 'audio/x-ms-wma',
  ape: 'audio/x-ape',
  wv: 'audio/x-wavpack',
  mpc: 'audio/x-musepack',
  dsf: 'audio/x-dsf',
  dff: 'audio/x-dff',
  mka: 'audio/x-matroska',
  webm: 'audio/webm',
};

const SERVED_AUDIO_TYPES: ReadonlySet<string> = new Set(Object.values(AUDIO_TYPES));

/**
 * The type a library file's bytes are sent as: its stored type when it is one of the audio types
 * above (the only ones a scan writes), else plain bytes; never a type a browser would run.
 */
export function servedAudioType(stored: string): string {
  return SERVED_AUDIO_TYPES.has(stored) ? stored : 'application/octet-stream';
}

/** The lower-case extension of a file name, without the dot. */
export function suffixOf(name: string): string {
  return extname(name).slice(1).toLowerCase();
}

export function isAudioFile(name: string): boolean {
  return Object.hasOwn(AUDIO_TYPES, suffixOf(name));
}

/** What a scan keeps of one audio file. */
export interface FileTags {
  metadata: TrackMetadata;
  durationMs: number | undefined;
  /** Kilobits per second. */
  bitRate: number | undefined;
  contentType: string;
  suffix: string;
  year: number | undefined;
  /** Whether an embedded picture's bytes are an allowed image (image-type.ts). */
  hasPicture: boolean;
}

/**
 * The version of this reader, kept with each file read (library_files.tag_reader): a scan reads an
 * unchanged file again, once, when an older version read it. Raise it when the reader learns to
 * read something it missed, with a migration marking which files already have it (see 0018).
 */
export const TAG_READER_VERSION = 2;

/**
 * Largest local file whose duration is computed from its whole stream when its headers give none
 * (an Ogg file's length is on its last page; a VBR MP3 without a Xing header has one only by
 * counting its frames). A disk read done once per file at scan; the cap keeps a stray recording
 * of many gigabytes from stalling the scan (it shows no duration instead).
 */
export const LOCAL_DURATION_READ_LIMIT = 1024 ** 3;

/**
 * Reads one file; throws when it is not audio its type can parse. `name` (the file's name in the
 * library, say a link's) gives the suffix and the fallback title. A file whose headers give no
 * duration, up to `durationReadLimit` bytes, is parsed a second time through its whole stream.
 */
export async function readFileTags(path: string, name = path, durationReadLimit = LOCAL_DURATION_READ_LIMIT): Promise<FileTags> {
  const parsed = await parseFile(path);
  if (!lacksDuration(parsed) || (await stat(path)).size > durationReadLimit) return fileTags(parsed, name);
  return fileTags(await wholeStreamParse(parsed, () => parseFile(path, { duration: true })), name);
}

/**
 * Reads a file through a tokenizer (a file host's, fetching byte ranges): the parser asks for
 * the bytes it needs, so tags and length come without the whole file. Pictures are skipped
 * (no bytes fetched for them; such files show no embedded cover). `name` is the file's name.
 * When the headers give no duration and `wholeFile` is given, the file's whole stream (what it
 * resolves to, one download) is parsed for it.
 */
export async function readTokenizerTags(
  tokenizer: Parameters<typeof parseFromTokenizer>[0],
  name: string,
  wholeFile?: () => Promise<ReadableStream<Uint8Array>>,
): Promise<FileTags> {
  const parsed = await parseFromTokenizer(tokenizer, { skipCovers: true });
  if (!lacksDuration(parsed) || !wholeFile) return fileTags(parsed, name);
  const { size, mimeType } = tokenizer.fileInfo;
  return fileTags(
    await wholeStreamParse(parsed, async () => parseWebStream(await wholeFile(), { size, mimeType }, { duration: true, skipCovers: true })),
    name,
  );
}

/** Whether a parse found audio but not its length: only then is the whole stream worth reading. */
function lacksDuration(parsed: IAudioMetadata): boolean {
  return parsed.format.codec !== undefined && parsed.format.duration === undefined;
}

/**
 * The parse of a whole stream, or the cheap parse when reading it fails (a damaged tail, a host
 * failing mid-download): the file is still added, and plays, without a duration, as before. (A
 * file host's next sync takes only changes, so a file left out would stay out until it changed.)
 */
async function wholeStreamParse(cheap: IAudioMetadata, whole: () => Promise<IAudioMetadata>): Promise<IAudioMetadata> {
  try {
    return await whole();
  } catch {
    return cheap;
  }
}

function fileTags(parsed: IAudioMetadata, path: string): FileTags {
  // The parser is lenient: garbage may yield an empty result, or a stray frame sync a codec
  // but neither a length nor tags.
  if (!parsed.format.codec || (parsed.format.duration === undefined && parsed.format.tagTypes.length === 0)) {
    throw new Error('no audio stream found');
  }
  const suffix = suffixOf(path);
  const durationMs = boundedInteger(parsed.format.duration === undefined ? undefined : parsed.format.duration * 1000, MAX_DURATION_MS);
  // Some taggers write 0 for "no year".
  const year = boundedInteger(parsed.common.year, 9999) || undefined;
  const metadata = trackMetadata(parsed, basename(path, extname(path)), durationMs, year);
  return {
    metadata,
    durationMs,
    bitRate: boundedInteger(parsed.format.bitrate === undefined ? undefined : parsed.format.bitrate / 1000, MAX_INT4),
    contentType: AUDIO_TYPES[suffix] ?? 'application/octet-stream',
    suffix,
    year,
    // A picture counts when its bytes are an allowed image, whatever format its tag declares.
    hasPicture: (parsed.common.picture ?? []).some((picture) => imageType(picture.data) !== null),
  };
}

function trackMetadata(parsed: IAudioMetadata, fileTitle: string, durationMs: number | undefined, year: number | undefined): TrackMetadata {
  const { common } = parsed;
  const metadata: TrackMetadata = {
    artist: name(artistCredit(common.artists ?? []) || common.artist) ?? UNKNOWN_ARTIST,
    title: name(common.title) ?? name(fileTitle) ?? fileTitle,
    album: name(common.album),
    albumArtist: name(common.albumartist),
    durationMs,
    trackNumber: boundedInteger(common.track.no ?? undefined, MAX_INT4),
    discNumber: boundedInteger(common.disk.no ?? undefined, MAX_INT4),
    mbid: mbidOrUndefined(common.musicbrainz_recordingid),
    artistMbid: mbidOrUndefined(first(common.musicbrainz_artistid)),
    albumMbid: mbidOrUndefined(common.musicbrainz_albumid),
    isrc: isrcOrUndefined(first(common.isrc)),
    genre: text(first(common.genre), MAX_GENRE_LENGTH),
    composer: name(first(common.composer)),
    label: name(first(common.label)),
    bpm: boundedInteger(common.bpm === undefined ? undefined : Number(common.bpm), MAX_INT4),
    key: text(common.key, MAX_TAG_LENGTH),
    lyrics: text(lyricsText(common.lyrics), MAX_LYRICS_LENGTH),
    year,
  };
  // Every value was bounded above; this guards the rules changing under this reader.
  const problem = metadataProblem(metadata);
  if (problem) throw new Error(`tags cannot be stored: ${problem}`);
  return metadata;
}

function lyricsText(lyrics: IAudioMetadata['common']['lyrics']): string | undefined {
  const tag = lyrics?.[0];
  if (!tag) return undefined;
  return tag.text ?? (tag.syncText.length ? tag.syncText.map((line) => line.text).join('\n') : undefined);
}

function first<T>(values: T | T[] | undefined): T | undefined {
  return Array.isArray(values) ? values[0] : values;
}

function name(value: string | undefined): string | undefined {
  return text(value, MAX_NAME_LENGTH);
}

/**
 * Text PostgreSQL can store, at most `max` code points; undefined when blank. NULs go and lone
 * surrogates become U+FFFD, as a tag editor's display would show them.
 */
function text(value: string | undefined, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  let clean = value.replaceAll('\u0000', '').toWellFormed().trim();
  if (longerThan(clean, max)) clean = Array.from(clean).slice(0, max).join('').trim();
  return clean === '' ? undefined : clean;
}

/** A whole number in 0…max, or undefined for anything else (NaN, negative, absurd). */
function boundedInteger(value: number | undefined, max: number): number | undefined {
  if (value === undefined || !Number.isFinite(value)) return undefined;
  const rounded = Math.round(value);
  return rounded >= 0 && rounded <= max ? rounded : undefined;
}
