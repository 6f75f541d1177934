/**
 * Imports export files from the browser: the server's own readers (src/core/scrobbling/imports/read.ts,
 * the same ones `earshot import` uses) turn records into listens here, and they go to
 * app.svc.scrobble.importListens in batches that each advance the file's checkpoint, so a stopped
 * or failed import resumes where it stopped (app.svc.scrobble.getImport) when the same file is
 * chosen again. The file (or zip entry) is known by the SHA-256 of its content, as the command line
 * knows it, so an import begun on one resumes on the other.
 */
import { FORMAT_NAMES, readImportRecords } from '../../../../src/core/scrobbling/imports/read.ts';
import { claimAcrossRun, PlayClaims } from '../../../../src/core/scrobbling/play-claims.ts';
import type { ImportFormat, ImportListen } from '../../../../src/core/scrobbling/imports/schemas.ts';
import { utf8Length } from '../../../../src/core/scrobbling/listen-rules.ts';
import type { Input, Output } from '../../api/xrpc.ts';
import { Sha256 } from './sha256.ts';

export type { ImportFormat };
export { FORMAT_NAMES };

type Batch = Input<'app.svc.scrobble.importListens'>;
type BatchResult = Output<'app.svc.scrobble.importListens'>;
type Status = Output<'app.svc.scrobble.getImport'>;

/** Where batches go: the API, or a stand-in in tests. */
export interface ImportApi {
  status(fingerprint: string): Promise<Status>;
  send(batch: Batch): Promise<BatchResult>;
}

export interface FileProgress {
  phase: 'reading' | 'importing' | 'done' | 'already imported' | 'stopped';
  format: ImportFormat | undefined;
  bytes: number;
  bytesRead: number;
  /** Records of the file handled, including those an earlier run imported. */
  records: number;
  /** Records an earlier run had imported: skipped now. */
  resumedFrom: number;
  stored: number;
  duplicate: number;
  ignored: number;
  /** Dry run: of the listens that would be stored, those of songs the catalog does not have yet. */
  newSongs: number;
  /** Why records were ignored, with how many: all of those ignored here, and those the server names (up to ten a batch). */
  reasons: Record<string, number>;
}

export interface ImportOptions {
  /** As the plan detected or the user named it (import-plan.ts). */
  format: ImportFormat;
  /** The content's SHA-256 when already taken (a checked zip entry's). */
  fingerprint?: string | undefined;
  api: ImportApi;
  onProgress: (progress: FileProgress) => void;
  /** Asked between batches: true stops there, and choosing the file again resumes after it. */
  stopRequested?: () => boolean;
  dryRun?: boolean;
  /** Dry run: the plays counted as stored so far in the whole run (earlier files), so a repeat of one counts as duplicate, as `earshot import` counts it. */
  claims?: PlayClaims;
}

/** Batches as `earshot import` sends them (run.ts): small requests, one transaction each. */
const BATCH_LISTENS = 500;
const MAX_BATCH_BYTES = 900 * 1024;
const MAX_BATCH_RECORDS = 10_000;

async function* blobBytes(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } finally {
    await reader.cancel();
  }
}

/** A file as UTF-8 text (a leading BOM dropped), read piece by piece. */
export async function* blobText(blob: Blob, onBytes: (bytes: number) => void = () => {}): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const bytes of blobBytes(blob)) {
    onBytes(bytes.length);
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** SHA-256 of the content, lowercase hex: crypto.subtle where the page may use it, else streamed in JavaScript. */
export async function fingerprintOf(blob: Blob): Promise<string> {
  if (globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  }
  const hash = new Sha256();
  for await (const bytes of blobBytes(blob)) hash.update(bytes);
  return hash.hex();
}

const isFormat = (name: string | undefined): name is ImportFormat => name !== undefined && name in FORMAT_NAMES;

interface Pending {
  records: number;
  listens: ImportListen[];
  bytes: number;
}

const emptyBatch = (): Pending => ({ records: 0, listens: [], bytes: 0 });

/** Imports one file, reporting after each batch; answers the final progress (phase done, already imported or stopped). */
export async function importFile(file: Blob, options: ImportOptions): Promise<FileProgress> {
  const { api } = options;
  const progress: FileProgress = {
    phase: 'reading',
    format: options.format,
    bytes: file.size,
    bytesRead: 0,
    records: 0,
    resumedFrom: 0,
    stored: 0,
    duplicate: 0,
    ignored: 0,
    newSongs: 0,
    reasons: {},
  };
  const report = () => options.onProgress({ ...progress, reasons: { ...progress.reasons } });
  report();
  const fingerprint = options.fingerprint ?? (await fingerprintOf(file));
  const status = await api.status(fingerprint);
  if (status.complete) {
    const format = isFormat(status.format) ? status.format : undefined;
    Object.assign(progress, {
      phase: 'already imported',
      format,
      records: status.recordsConsumed,
      stored: status.stored,
      duplicate: status.duplicate,
      ignored: status.ignored,
    });
    return progress;
  }
  const { format } = options;
  Object.assign(progress, { phase: 'importing', format, records: status.recordsConsumed, resumedFrom: status.recordsConsumed });
  report();
  const claims = options.claims ?? new PlayClaims();
  const noteIgnored = (reason: string) => (progress.reasons[reason] = (progress.reasons[reason] ?? 0) + 1);
  const flush = async (batch: Pending, complete: boolean) => {
    const sent: Batch = { fingerprint, format, from: progress.records, records: batch.records, listens: batch.listens, complete };
    const result = options.dryRun ? claimAcrossRun(await api.send({ ...sent, dryRun: true }), claims) : await api.send(sent);
    for (const { reason } of result.ignoredListens) noteIgnored(reason);
    progress.records += batch.records;
    progress.stored += result.stored;
    progress.duplicate += result.duplicate;
    progress.ignored += result.ignored;
    progress.newSongs += result.newSongs ?? 0;
    report();
  };
  let batch = emptyBatch();
  for await (const { record, result } of readImportRecords(
    format,
    blobText(file, (bytes) => (progress.bytesRead += bytes)),
  )) {
    if (record <= status.recordsConsumed) continue;
    // Only between batches: what was sent is committed, and the next run starts right after it.
    if (batch.records === 0 && options.stopRequested?.()) {
      progress.phase = 'stopped';
      return progress;
    }
    const bytes = 'listen' in result ? utf8Length(JSON.stringify(result.listen)) + 1 : 0;
    const sendable = bytes <= MAX_BATCH_BYTES;
    if (sendable && batch.bytes + bytes > MAX_BATCH_BYTES) {
      await flush(batch, false);
      batch = emptyBatch();
    }
    batch.records++;
    if ('ignored' in result) noteIgnored(result.ignored);
    else if (!sendable) noteIgnored(`listen is larger than ${MAX_BATCH_BYTES} bytes to send`);
    else {
      batch.listens.push(result.listen);
      batch.bytes += bytes;
    }
    if (batch.listens.length >= BATCH_LISTENS || batch.records >= MAX_BATCH_RECORDS) {
      await flush(batch, false);
      batch = emptyBatch();
    }
  }
  await flush(batch, true);
  progress.phase = 'done';
  return progress;
}
