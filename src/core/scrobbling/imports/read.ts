import { utf8Length } from '../listen-rules.ts';
import { csvRows } from './csv.ts';
import { jsonArrayElements, jsonArraysAt, jsonLines, MAX_RECORD_BYTES, parseJson, type JsonRecordText } from './json-stream.ts';
import { isLastfmTrackList, lastfmJsonRecord, lastfmLayout, lastfmRecord } from './lastfm.ts';
import { listenBrainzRecord } from './listenbrainz.ts';
import { isMalojaScrobbleList, malojaRecord } from './maloja.ts';
import { ImportFormatError, type ForeignRecord, type ImportRecord, type UnreadRecord } from './records.ts';
import type { ImportFormat } from './schemas.ts';
import { scrobblerLogRecords } from './scrobbler-log.ts';
import { spotifyRecord } from './spotify.ts';

/** One record of an export file, numbered from 1 in file order: the unit of import checkpoints. */
export interface ParsedRecord {
  record: number;
  result: ImportRecord;
}

type Candidate = { record: number; result: ImportRecord | ForeignRecord | UnreadRecord };

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  listenbrainz: 'ListenBrainz export (JSON array or JSON Lines)',
  lastfm: 'Last.fm export (scrobble CSV, or recenttracks JSON pages)',
  spotify: 'Spotify streaming history (extended, or account data)',
  'scrobbler-log': 'Audioscrobbler device log (.scrobbler.log)',
  maloja: 'Maloja export (JSON)',
};

/** The first non-blank character of a text stream, and the stream unchanged. */
async function peek(chunks: AsyncIterable<string>): Promise<{ first: string | undefined; chunks: AsyncIterable<string> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const seen: string[] = [];
  let first: string | undefined;
  while (first === undefined) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    first = next.value.trimStart()[0];
  }
  async function* replay() {
    yield* seen;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { first, chunks: replay() };
}

async function* mapJson(records: AsyncIterable<JsonRecordText>, map: (value: unknown) => ImportRecord | ForeignRecord): AsyncGenerator<Candidate> {
  for await (const found of records) {
    if ('problem' in found) {
      yield { record: found.record, result: { unread: found.problem } };
      continue;
    }
    const value = parseJson(found.text);
    yield { record: found.record, result: value === undefined ? { foreign: 'a record is not valid JSON' } : map(value) };
  }
}

async function* listenBrainzCandidates(chunks: AsyncIterable<string>): AsyncGenerator<Candidate> {
  const peeked = await peek(chunks);
  const records = peeked.first === '[' ? jsonArrayElements(peeked.chunks) : jsonLines(peeked.chunks);
  yield* mapJson(records, listenBrainzRecord);
}

/** A Last.fm export is CSV, or JSON when it starts as JSON does. */
async function* lastfmCandidates(chunks: AsyncIterable<string>): AsyncGenerator<Candidate> {
  const peeked = await peek(chunks);
  if (peeked.first === '{' || peeked.first === '[') yield* mapJson(jsonArraysAt(peeked.chunks, isLastfmTrackList, 'recenttracks.track'), lastfmJsonRecord);
  else yield* lastfmCsvCandidates(peeked.chunks);
}

async function* lastfmCsvCandidates(chunks: AsyncIterable<string>): AsyncGenerator<Candidate> {
  let layout: ReturnType<typeof lastfmLayout> | undefined;
  let record = 0;
  for await (const row of csvRows(chunks)) {
    if (!layout) {
      layout = lastfmLayout(row);
      if (layout.hasHeader) continue;
    }
    // csvRows holds a row whole; the cap still keeps an oversized one from being sent.
    const bytes = row.reduce((sum, cell) => sum + utf8Length(cell) + 1, 0);
    yield { record: ++record, result: bytes > MAX_RECORD_BYTES ? { unread: `record is larger than ${MAX_RECORD_BYTES} bytes` } : lastfmRecord(row, layout) };
  }
}

const CANDIDATES: Record<ImportFormat, (chunks: AsyncIterable<string>) => AsyncIterable<Candidate>> = {
  listenbrainz: listenBrainzCandidates,
  lastfm: lastfmCandidates,
  spotify: (chunks) => mapJson(jsonArrayElements(chunks), spotifyRecord),
  'scrobbler-log': scrobblerLogRecords,
  maloja: (chunks) => mapJson(jsonArraysAt(chunks, isMalojaScrobbleList, 'scrobbles'), malojaRecord),
};

/**
 * The records of an export file, streamed. A file whose first record is not of
 * the format is refused (ImportFormatError); later odd records are ignored.
 */
export async function* readImportRecords(format: ImportFormat, chunks: AsyncIterable<string>): AsyncGenerator<ParsedRecord> {
  let recognized = false;
  for await (const { record, result } of CANDIDATES[format](chunks)) {
    if ('unread' in result) {
      yield { record, result: { ignored: result.unread } };
      continue;
    }
    if ('foreign' in result) {
      if (!recognized) throw new ImportFormatError(record, `not a ${FORMAT_NAMES[format]}: ${result.foreign}`);
      yield { record, result: { ignored: result.foreign } };
      continue;
    }
    recognized = true;
    yield { record, result };
  }
  if (!recognized) throw new ImportFormatError(1, `the file holds no records`);
}
