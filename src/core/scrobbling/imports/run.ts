import { claimAcrossRun, PlayClaims } from '../play-claims.ts';
import { textChunks } from './chunks.ts';
import { readImportRecords } from './read.ts';
import type { ImportBatch, ImportBatchResult, ImportFormat, ImportListen, ImportStatus } from './schemas.ts';
import { sourceFingerprint, type ImportSource } from './sources.ts';

/** Where batches go: the running server's API, or the database directly. */
export interface ImportSink {
  status(fingerprint: string): Promise<ImportStatus>;
  send(batch: ImportBatch): Promise<ImportBatchResult>;
}

export interface ImportProgress {
  bytesRead: number;
  fileBytes: number;
  /** Records of the file handled so far, including those a previous run imported. */
  records: number;
  stored: number;
  duplicate: number;
  ignored: number;
  /** Dry run: of the listens that would be stored, those of songs the catalog does not have yet. */
  newSongs: number;
  /** Listens handled by this run per second. */
  rate: number;
}

export interface ImportSummary extends ImportProgress {
  fingerprint: string;
  /** Records skipped because an earlier run had imported them. */
  resumedFrom: number;
  /** The file had been imported completely before; nothing was sent. */
  alreadyComplete: ImportStatus | undefined;
  /** The first few ignored records and why. */
  ignoredExamples: { record: number; reason: string }[];
  /** Stopped on request after a committed batch, before the end of the file. */
  interrupted: boolean;
}

export interface ImportOptions {
  source: ImportSource;
  format: ImportFormat;
  sink: ImportSink;
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Asked after each batch: true stops the import there (Ctrl-C); a re-run resumes after it. */
  stopRequested?: () => boolean;
  /** Batches are matched and counted by the sink, and nothing is written. */
  dryRun?: boolean;
  /** Dry run: the plays counted as stored so far in the whole run (other files of the command), so a repeat of one counts as duplicate. */
  claims?: PlayClaims;
}

const DEFAULT_BATCH = 500;
/**
 * Listens' JSON per request, in bytes: small requests (each one transaction's
 * worth), far under importListens's body limit, whatever the records carry. A listen is
 * at most a few hundred KiB once the listen rules pass it (64 KiB of record,
 * escaped at worst sixfold), so one always fits.
 */
const MAX_BATCH_BYTES = 900 * 1024;
const IGNORED_EXAMPLES = 5;
/** A long run of records that yield no listen still reports progress and checkpoints. */
const MAX_BATCH_RECORDS = 10_000;

interface PendingBatch {
  records: number;
  listens: ImportListen[];
  /** File record number of each listen, to name the ones the server ignores. */
  recordNumbers: number[];
  bytes: number;
}

const emptyBatch = (): PendingBatch => ({ records: 0, listens: [], recordNumbers: [], bytes: 0 });

/** A batch sent and not yet answered. */
interface Flight {
  sent: ImportBatch;
  batch: PendingBatch;
  /** Sent while the batch in front of it was not answered yet. */
  behind: boolean;
  answer: Promise<ImportBatchResult>;
}

/**
 * Streams an export file (or archive entry) to a sink in batches, resuming
 * after the records the sink's checkpoint says are already imported. Memory
 * stays constant: one batch is parsed while nothing else of the file is held.
 * The content is read twice: once for its fingerprint (which also finds a
 * damaged archive entry before any of it is sent; a verified zip entry's was
 * taken when its archive was planned), then to import it.
 */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { source, format, sink } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const fileBytes = source.bytes;
  const fingerprint = source.fingerprint ?? (await sourceFingerprint(source));
  const status = await sink.status(fingerprint);
  const summary: ImportSummary = {
    fingerprint,
    bytesRead: 0,
    fileBytes,
    records: status.recordsConsumed,
    stored: 0,
    duplicate: 0,
    ignored: 0,
    newSongs: 0,
    rate: 0,
    resumedFrom: status.recordsConsumed,
    alreadyComplete: status.complete ? status : undefined,
    ignoredExamples: [],
    interrupted: false,
  };
  if (status.complete) return summary;
  const started = performance.now();
  const noteIgnored = (record: number, reason: string) => {
    if (summary.ignoredExamples.length < IGNORED_EXAMPLES) summary.ignoredExamples.push({ record, reason });
  };
  const claims = options.claims ?? new PlayClaims();
  const sendBatch = (sent: ImportBatch) => (options.dryRun ? sink.send({ ...sent, dryRun: true }) : sink.send(sent));
  const account = (batch: PendingBatch, result: ImportBatchResult) => {
    for (const { index, reason } of result.ignoredListens) noteIgnored(batch.recordNumbers[index]!, reason);
    summary.records += batch.records;
    summary.stored += result.stored;
    summary.duplicate += result.duplicate;
    summary.ignored += result.ignored;
    summary.newSongs += result.newSongs ?? 0;
    summary.rate = (summary.stored + summary.duplicate + summary.ignored) / Math.max((performance.now() - started) / 1000, 0.001);
    options.onProgress?.({ ...summary });
  };
  // One batch stays in flight while the next is read and sent: the server matches that one to
  // the catalog while it stores this one. Answers are taken in order.
  let inFlight: Flight | undefined;
  let sentRecords = summary.records;
  const answerOf = async (flight: Flight) => {
    try {
      return await flight.answer;
    } catch (error) {
      // Sent while the batch in front was being stored, it may have reached the server first and
      // been refused for a checkpoint not there yet (409): that one is stored now, so it goes again.
      if (!flight.behind || (error as { status?: unknown }).status !== 409) throw error;
      return sendBatch(flight.sent);
    }
  };
  const settle = async (flight: Flight) => {
    try {
      const result = await answerOf(flight);
      account(flight.batch, options.dryRun ? claimAcrossRun(result, claims) : result);
    } catch (error) {
      // Nothing of the run is left running once it throws.
      if (inFlight !== flight) await inFlight?.answer.catch(() => undefined);
      throw error;
    }
  };
  const flush = async (batch: PendingBatch, complete: boolean) => {
    const sent: ImportBatch = { fingerprint, format, from: sentRecords, records: batch.records, listens: batch.listens, complete };
    sentRecords += batch.records;
    const front = inFlight;
    inFlight = { sent, batch, behind: front !== undefined, answer: sendBatch(sent) };
    // Taken in order by settle; until then a refusal must not count as unhandled.
    inFlight.answer.catch(() => undefined);
    if (front) await settle(front);
  };
  /** Whether to stop here, asked between batches: what was sent is committed first, and a re-run starts right after it. */
  const stopping = async () => {
    if (!options.stopRequested?.()) return false;
    if (inFlight) await settle(inFlight);
    summary.interrupted = true;
    return true;
  };
  let batch = emptyBatch();
  const chunks = textChunks(source.open(), (bytes) => (summary.bytesRead += bytes));
  for await (const { record, result } of readImportRecords(format, chunks)) {
    if (record <= status.recordsConsumed) continue;
    if (batch.records === 0 && (await stopping())) return summary;
    const bytes = 'listen' in result ? Buffer.byteLength(JSON.stringify(result.listen)) + 1 : 0;
    const sendable = bytes <= MAX_BATCH_BYTES;
    // The batch goes before this listen joins it, so no request ever passes the byte limit.
    if (sendable && batch.bytes + bytes > MAX_BATCH_BYTES) {
      await flush(batch, false);
      batch = emptyBatch();
    }
    batch.records++;
    if ('ignored' in result) noteIgnored(record, result.ignored);
    else if (!sendable) noteIgnored(record, `listen is larger than ${MAX_BATCH_BYTES} bytes to send`);
    else {
      batch.listens.push(result.listen);
      batch.recordNumbers.push(record);
      batch.bytes += bytes;
    }
    if (batch.listens.length >= batchSize || batch.records >= MAX_BATCH_RECORDS) {
      await flush(batch, false);
      batch = emptyBatch();
      // A stop asked while the answer was awaited takes effect now, not after the next batch is read.
      if (await stopping()) return summary;
    }
  }
  await flush(batch, true);
  await settle(inFlight!);
  return summary;
}
