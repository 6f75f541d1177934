/**
 * Small, valid audio files with tags written byte by byte, for tests and benches: no encoder, no
 * download. Each format carries silent audio whose length is the asked duration, so a tag reader
 * derives duration and bit rate as it would for a real file.
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';

export type TestFormat = 'mp3' | 'flac' | 'ogg';

export interface TestPicture {
  /** The format the tag declares; nothing checks it against the bytes (tests declare lies too). */
  mime: string;
  data: Uint8Array;
}

export interface TestTags {
  title?: string;
  /** Several artists become several values of the artist field. */
  artist?: string | string[];
  album?: string;
  albumArtist?: string;
  trackNumber?: number;
  trackTotal?: number;
  discNumber?: number;
  discTotal?: number;
  genre?: string;
  year?: number;
  composer?: string;
  label?: string;
  bpm?: number;
  key?: string;
  isrc?: string;
  lyrics?: string;
  /** MusicBrainz recording id. */
  mbid?: string;
  releaseTrackMbid?: string;
  artistMbid?: string;
  albumMbid?: string;
  picture?: TestPicture;
}

export interface TestTrackOptions {
  /** Length of the silent audio; 2 s unless told. */
  durationMs?: number;
  /** File modification time to set after writing. */
  mtime?: Date;
}

export interface TestTrack {
  path: string;
  bytes: Uint8Array;
  /** The duration the audio really has (rounded to whole frames or samples). */
  durationMs: number;
}

/** Writes `relativePath` under `dir` (making folders), returning where and what was written. */
export async function writeTestTrack(
  dir: string,
  relativePath: string,
  format: TestFormat,
  tags: TestTags,
  options: TestTrackOptions = {},
): Promise<TestTrack> {
  const { bytes, durationMs } = encodeTestTrack(format, tags, options.durationMs ?? 2000);
  const path = join(dir, relativePath);
  await writeBytes(path, bytes, options.mtime);
  return { path, bytes, durationMs };
}

/** The bytes of a test track, without touching the file system. */
export function encodeTestTrack(format: TestFormat, tags: TestTags, durationMs = 2000): { bytes: Uint8Array; durationMs: number } {
  switch (format) {
    case 'mp3':
      return encodeMp3(tags, durationMs);
    case 'flac':
      return encodeFlac(tags, durationMs);
    case 'ogg':
      return encodeOpus(tags, durationMs);
  }
}

/** Writes a small image file (e.g. `Album/cover.jpg`); the format follows the extension. */
export async function writeTestImage(dir: string, relativePath: string, label = relativePath): Promise<string> {
  const path = join(dir, relativePath);
  await writeBytes(path, relativePath.toLowerCase().endsWith('.png') ? testPng(label) : testJpeg(label));
  return path;
}

async function writeBytes(path: string, bytes: Uint8Array, mtime?: Date): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  if (mtime) await utimes(path, mtime, mtime);
}

// ---------------------------------------------------------------------------------------------
// Bytes

const utf8 = new TextEncoder();

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u8(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

function be(value: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = size - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256;
  return out;
}

function le(value: number, size: number): Uint8Array {
  return be(value, size).reverse();
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function artists(tags: TestTags): string[] {
  if (tags.artist === undefined) return [];
  return Array.isArray(tags.artist) ? tags.artist : [tags.artist];
}

function numberPair(n: number | undefined, total: number | undefined): string | undefined {
  if (n === undefined) return undefined;
  return total === undefined ? String(n) : `${n}/${total}`;
}

// ---------------------------------------------------------------------------------------------
// Pictures

const crc32Table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of zlib and PNG. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crc32Table[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A 1×1 PNG whose colour comes from the label, so different labels give different bytes. */
export function testPng(label = ''): Uint8Array {
  const seed = crc32(utf8.encode(label));
  const chunk = (type: string, data: Uint8Array) => concat([be(data.length, 4), ascii(type), data, be(crc32(concat([ascii(type), data])), 4)]);
  const pixel = u8(0, seed & 0xff, (seed >>> 8) & 0xff, (seed >>> 16) & 0xff);
  return concat([
    u8(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', concat([be(1, 4), be(1, 4), u8(8, 2, 0, 0, 0)])),
    chunk('IDAT', deflateSync(pixel)),
    chunk('IEND', new Uint8Array()),
  ]);
}

/**
 * An 8×8 grey baseline JPEG. Its Huffman tables hold one code each (DC difference 0, end of
 * block), so the scan is two bits; the label goes in a comment segment to make the bytes distinct.
 */
export function testJpeg(label = ''): Uint8Array {
  const segment = (marker: number, data: Uint8Array) => concat([u8(0xff, marker), be(data.length + 2, 2), data]);
  const oneCodeTable = (tableClass: number) => concat([u8(tableClass << 4, 1), new Uint8Array(15), u8(0)]);
  return concat([
    u8(0xff, 0xd8),
    segment(0xe0, concat([ascii('JFIF\0'), u8(1, 1, 0), be(1, 2), be(1, 2), u8(0, 0)])),
    segment(0xfe, utf8.encode(label)),
    segment(0xdb, concat([u8(0), new Uint8Array(64).fill(1)])),
    segment(0xc0, concat([u8(8), be(8, 2), be(8, 2), u8(1, 1, 0x11, 0)])),
    segment(0xc4, oneCodeTable(0)),
    segment(0xc4, oneCodeTable(1)),
    segment(0xda, u8(1, 1, 0x00, 0, 63, 0)),
    u8(0x3f),
    u8(0xff, 0xd9),
  ]);
}

// ---------------------------------------------------------------------------------------------
// MP3: an ID3v2.4 tag, then silent MPEG-1 Layer III frames (32 kHz, 32 kbit/s, mono: 144 bytes,
// 1152 samples each). Constant bit rate, so readers take the length from the file size.

const MP3_FRAME_BYTES = 144;
const MP3_FRAME_SAMPLES = 1152;
const MP3_SAMPLE_RATE = 32000;
/** Sync, MPEG-1, Layer III, no CRC; 32 kbit/s, 32 kHz; mono, original. */
const MP3_FRAME_HEADER = u8(0xff, 0xfb, 0x18, 0xc4);

function encodeMp3(tags: TestTags, durationMs: number): { bytes: Uint8Array; durationMs: number } {
  const frames = Math.max(1, Math.round((durationMs * MP3_SAMPLE_RATE) / 1000 / MP3_FRAME_SAMPLES));
  // All-zero side information: no main data, so every frame decodes to silence.
  const audio = new Uint8Array(frames * MP3_FRAME_BYTES);
  for (let f = 0; f < frames; f++) audio.set(MP3_FRAME_HEADER, f * MP3_FRAME_BYTES);
  return {
    bytes: concat([id3v24(tags), audio]),
    durationMs: Math.round((frames * MP3_FRAME_SAMPLES * 1000) / MP3_SAMPLE_RATE),
  };
}

/** Tag sizes in ID3v2.4 are 28-bit "synchsafe": seven bits per byte. */
function synchsafe(n: number): Uint8Array {
  return u8((n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f);
}

const UTF8_ENCODING = 3;

function id3Frame(id: string, body: Uint8Array): Uint8Array {
  return concat([ascii(id), synchsafe(body.length), u8(0, 0), body]);
}

function id3Text(id: string, value: string | string[] | number | undefined): Uint8Array[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [String(value)];
  if (values.length === 0) return [];
  return [id3Frame(id, concat([u8(UTF8_ENCODING), utf8.encode(values.join('\0'))]))];
}

function id3UserText(description: string, value: string | undefined): Uint8Array[] {
  if (value === undefined) return [];
  return [id3Frame('TXXX', concat([u8(UTF8_ENCODING), utf8.encode(`${description}\0${value}`)]))];
}

function id3v24(tags: TestTags): Uint8Array {
  const frames = [
    ...id3Text('TIT2', tags.title),
    ...id3Text('TPE1', artists(tags)),
    ...id3Text('TALB', tags.album),
    ...id3Text('TPE2', tags.albumArtist),
    ...id3Text('TRCK', numberPair(tags.trackNumber, tags.trackTotal)),
    ...id3Text('TPOS', numberPair(tags.discNumber, tags.discTotal)),
    ...id3Text('TCON', tags.genre),
    ...id3Text('TDRC', tags.year),
    ...id3Text('TCOM', tags.composer),
    ...id3Text('TPUB', tags.label),
    ...id3Text('TBPM', tags.bpm),
    ...id3Text('TKEY', tags.key),
    ...id3Text('TSRC', tags.isrc),
    ...id3UserText('MusicBrainz Release Track Id', tags.releaseTrackMbid),
    ...id3UserText('MusicBrainz Artist Id', tags.artistMbid),
    ...id3UserText('MusicBrainz Album Id', tags.albumMbid),
    // Picard keeps the recording id in a unique file identifier owned by MusicBrainz.
    ...(tags.mbid ? [id3Frame('UFID', concat([ascii('http://musicbrainz.org\0'), ascii(tags.mbid)]))] : []),
    ...(tags.lyrics === undefined ? [] : [id3Frame('USLT', concat([u8(UTF8_ENCODING), ascii('eng'), u8(0), utf8.encode(tags.lyrics)]))]),
    ...(tags.picture ? [id3Frame('APIC', concat([u8(UTF8_ENCODING), ascii(`${tags.picture.mime}\0`), u8(3), u8(0), tags.picture.data]))] : []),
  ];
  const body = concat(frames);
  return concat([ascii('ID3'), u8(4, 0, 0), synchsafe(body.length), body]);
}

// ---------------------------------------------------------------------------------------------
// Vorbis comments (FLAC and Opus share them) and the FLAC picture structure (Ogg embeds it in a
// comment, base64-encoded).

function vorbisComments(tags: TestTags): string[] {
  const fields: [string, string | number | undefined][] = [
    ['TITLE', tags.title],
    ...artists(tags).map((a): [string, string] => ['ARTIST', a]),
    ['ALBUM', tags.album],
    ['ALBUMARTIST', tags.albumArtist],
    ['TRACKNUMBER', tags.trackNumber],
    ['TRACKTOTAL', tags.trackTotal],
    ['DISCNUMBER', tags.discNumber],
    ['DISCTOTAL', tags.discTotal],
    ['GENRE', tags.genre],
    ['DATE', tags.year],
    ['COMPOSER', tags.composer],
    ['LABEL', tags.label],
    ['BPM', tags.bpm],
    ['KEY', tags.key],
    ['ISRC', tags.isrc],
    ['LYRICS', tags.lyrics],
    ['MUSICBRAINZ_TRACKID', tags.mbid],
    ['MUSICBRAINZ_RELEASETRACKID', tags.releaseTrackMbid],
    ['MUSICBRAINZ_ARTISTID', tags.artistMbid],
    ['MUSICBRAINZ_ALBUMID', tags.albumMbid],
  ];
  return fields.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`);
}

function vorbisCommentBlock(comments: string[]): Uint8Array {
  const vendor = utf8.encode('earshot test-music');
  const entries = comments.map((c) => utf8.encode(c));
  return concat([le(vendor.length, 4), vendor, le(entries.length, 4), ...entries.flatMap((e) => [le(e.length, 4), e])]);
}

function flacPicture(picture: TestPicture): Uint8Array {
  const mime = ascii(picture.mime);
  // Type 3 is the front cover; width, height, depth and colour count may be 0 ("unknown").
  return concat([be(3, 4), be(mime.length, 4), mime, be(0, 4), be(0, 16), be(picture.data.length, 4), picture.data]);
}

// ---------------------------------------------------------------------------------------------
// FLAC: STREAMINFO, VORBIS_COMMENT, PICTURE, then frames of 4096 samples (44.1 kHz, 16-bit mono)
// each holding one CONSTANT subframe of silence.

const FLAC_RATE = 44100;
const FLAC_BLOCK = 4096;

function encodeFlac(tags: TestTags, durationMs: number): { bytes: Uint8Array; durationMs: number } {
  const totalSamples = Math.max(1, Math.round((durationMs * FLAC_RATE) / 1000));
  const frames: Uint8Array[] = [];
  for (let n = 0, left = totalSamples; left > 0; n++, left -= FLAC_BLOCK) {
    frames.push(flacFrame(n, Math.min(FLAC_BLOCK, left)));
  }
  const blocks: [number, Uint8Array][] = [
    [0, flacStreamInfo(totalSamples, frames)],
    [4, vorbisCommentBlock(vorbisComments(tags))],
    ...(tags.picture ? [[6, flacPicture(tags.picture)] as [number, Uint8Array]] : []),
  ];
  const metadata = blocks.map(([type, data], i) => concat([u8((i === blocks.length - 1 ? 0x80 : 0) | type), be(data.length, 3), data]));
  return {
    bytes: concat([ascii('fLaC'), ...metadata, ...frames]),
    durationMs: Math.round((totalSamples * 1000) / FLAC_RATE),
  };
}

function flacStreamInfo(totalSamples: number, frames: Uint8Array[]): Uint8Array {
  const sizes = frames.map((f) => f.length);
  // 20 bits sample rate, 3 bits channels - 1, 5 bits bits per sample - 1, 36 bits total samples.
  const packed = (BigInt(FLAC_RATE) << 44n) | (0n << 41n) | (15n << 36n) | BigInt(totalSamples);
  return concat([
    be(Math.min(FLAC_BLOCK, totalSamples), 2),
    be(FLAC_BLOCK, 2),
    be(Math.min(...sizes), 3),
    be(Math.max(...sizes), 3),
    be(Number(packed >> 32n), 4),
    be(Number(packed & 0xffffffffn), 4),
    new Uint8Array(16), // MD5 of the decoded audio: zero means "not computed".
  ]);
}

function crc8(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  }
  return c;
}

function crc16(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) {
    c ^= b << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

/** The frame number in FLAC's UTF-8-like coding (enough for numbers below 2048). */
function flacFrameNumber(n: number): Uint8Array {
  return n < 0x80 ? u8(n) : u8(0xc0 | (n >>> 6), 0x80 | (n & 0x3f));
}

function flacFrame(n: number, samples: number): Uint8Array {
  // Block size code 12 is 4096; code 7 means "16-bit (size - 1) follows" for a shorter last block.
  const full = samples === FLAC_BLOCK;
  const header = concat([u8(0xff, 0xf8, ((full ? 12 : 7) << 4) | 9, (0 << 4) | (4 << 1)), flacFrameNumber(n), full ? new Uint8Array() : be(samples - 1, 2)]);
  // Subframe header 0 (CONSTANT, no wasted bits), then the 16-bit constant sample: silence.
  const body = concat([header, u8(crc8(header)), u8(0, 0, 0)]);
  return concat([body, be(crc16(body), 2)]);
}

// ---------------------------------------------------------------------------------------------
// Ogg Opus: an OpusHead page, OpusTags pages, then pages of 20 ms silent packets; the last page
// ends the stream and its granule position gives the length.

const OPUS_PRESKIP = 312;
const OPUS_PACKET_SAMPLES = 960;
/** TOC byte 0xf8 (CELT, fullband, 20 ms, mono, one frame) and a frame that decodes to silence. */
const OPUS_SILENT_PACKET = u8(0xf8, 0xff, 0xfe);
const OGG_SERIAL = 0x45415253;

function encodeOpus(tags: TestTags, durationMs: number): { bytes: Uint8Array; durationMs: number } {
  const packets = Math.max(1, Math.round((durationMs * 48) / OPUS_PACKET_SAMPLES));
  const head = concat([ascii('OpusHead'), u8(1, 1), le(OPUS_PRESKIP, 2), le(48000, 4), le(0, 2), u8(0)]);
  const comments = vorbisComments(tags);
  if (tags.picture) comments.push(`METADATA_BLOCK_PICTURE=${Buffer.from(flacPicture(tags.picture)).toString('base64')}`);
  const opusTags = concat([ascii('OpusTags'), vorbisCommentBlock(comments)]);
  const pages = new OggPages();
  pages.add([head], 0);
  pages.add([opusTags], 0);
  const audio = Array.from({ length: packets }, () => OPUS_SILENT_PACKET);
  pages.add(audio, (i) => OPUS_PRESKIP + (i + 1) * OPUS_PACKET_SAMPLES, true);
  return { bytes: pages.bytes(), durationMs: Math.round((packets * OPUS_PACKET_SAMPLES) / 48) };
}

const oggCrcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n << 24;
  for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  return c >>> 0;
});

function oggCrc(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) c = ((c << 8) ^ oggCrcTable[((c >>> 24) ^ b) & 0xff]!) >>> 0;
  return c;
}

/** Lays packets out in Ogg pages of at most 255 lacing values, each with its CRC. */
class OggPages {
  private readonly pages: Uint8Array[] = [];

  /**
   * Starts packets on a new page. `granule` is the position after the packet ending a page (or
   * one number for all); `last` marks the final page as the end of the stream.
   */
  add(packets: Uint8Array[], granule: number | ((packetIndex: number) => number), last = false): void {
    const granuleAfter = typeof granule === 'number' ? () => granule : granule;
    let lacing: number[] = [];
    let body: Uint8Array[] = [];
    let continued = false;
    let lastEnded = -1;
    const flush = (final: boolean) => {
      const ended = lastEnded;
      this.page(lacing, concat(body), continued, ended >= 0 ? granuleAfter(ended) : -1, final && last);
      lacing = [];
      body = [];
    };
    packets.forEach((packet, index) => {
      for (let at = 0; ; at += 255) {
        if (lacing.length === 255) {
          flush(false);
          // The next page goes on with a packet begun on the one just written.
          continued = at > 0;
          lastEnded = -1;
        }
        const size = Math.min(255, packet.length - at);
        lacing.push(size);
        body.push(packet.subarray(at, at + size));
        if (size < 255) break;
      }
      lastEnded = index;
    });
    flush(true);
  }

  private page(lacing: number[], body: Uint8Array, continued: boolean, granule: number, last: boolean): void {
    const flags = (continued ? 1 : 0) | (this.pages.length === 0 ? 2 : 0) | (last ? 4 : 0);
    // A granule of -1 means no packet ends on this page.
    const granuleBytes = granule < 0 ? new Uint8Array(8).fill(0xff) : le(granule, 8);
    const page = concat([ascii('OggS'), u8(0, flags), granuleBytes, le(OGG_SERIAL, 4), le(this.pages.length, 4), le(0, 4), u8(lacing.length, ...lacing), body]);
    new DataView(page.buffer).setUint32(22, oggCrc(page), true);
    this.pages.push(page);
  }

  bytes(): Uint8Array {
    return concat(this.pages);
  }
}
