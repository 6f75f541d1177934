import { setTimeout as sleep } from 'node:timers/promises';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { sql, type Transaction } from 'kysely';
import { conflict, invalidRequest } from '../../../toolkit/errors.ts';
import { isoDateTime } from '../../../toolkit/schemas.ts';
import type { Config } from '../../../toolkit/config.ts';
import { inTransaction, type Database, type DB } from '../../../toolkit/db/index.ts';
import { TRANSACTION_ATTEMPTS } from '../../../toolkit/db/retry.ts';
import {
  matchKnownListens,
  previewListens,
  resolveListenTracks,
  storeListens,
  storeListensCounted,
  type KnownListens,
  type Listen,
  type ListenOutcome,
  type ListenTrack,
  type PreviewOutcome,
} from '../ingest.ts';
import { analyzeGrownQueue, totalAtImportEnd, totalQueuedOf } from '../../stats/index.ts';
import { listenProblem } from '../listen-rules.ts';
import { ImportListen, type ImportBatch, type ImportBatchResult, type ImportStatus } from './schemas.ts';

/** How many ignored listens a batch answer names; the counts cover the rest. */
const REPORTED_IGNORED = 10;

type CheckpointRow = {
  fingerprint: string;
  format: string;
  records_consumed: number;
  stored: number;
  duplicate: number;
  ignored: number;
  completed_at: Date | null;
};

function toStatus(fingerprint: string, row: CheckpointRow | undefined): ImportStatus {
  if (!row) return { fingerprint, recordsConsumed: 0, stored: 0, duplicate: 0, ignored: 0, complete: false };
  return {
    fingerprint,
    format: row.format,
    recordsConsumed: row.records_consumed,
    stored: row.stored,
    duplicate: row.duplicate,
    ignored: row.ignored,
    complete: row.completed_at !== null,
    ...(row.completed_at ? { completedAt: isoDateTime(row.completed_at) } : {}),
  };
}

const CHECKPOINT_COLUMNS = ['fingerprint', 'format', 'records_consumed', 'stored', 'duplicate', 'ignored', 'completed_at'] as const;

async function readCheckpoint(db: Pick<Database, 'selectFrom'>, userId: string, fingerprint: string): Promise<CheckpointRow | undefined> {
  return db.selectFrom('import_checkpoints').select(CHECKPOINT_COLUMNS).where('user_id', '=', userId).where('fingerprint', '=', fingerprint).executeTakeFirst();
}

/** How far the user's import of the file with this fingerprint got. */
export async function importStatus(db: Database, userId: string, fingerprint: string): Promise<ImportStatus> {
  return toStatus(fingerprint, await readCheckpoint(db, userId, fingerprint));
}

const ajv = new Ajv.default({ allErrors: false });
addFormats.default(ajv);
const isImportListen = ajv.compile<ImportListen>(ImportListen);

/**
 * The listen to store, or why it is ignored. The batch schema lets any value
 * through as a listen, so that one odd listen cannot fail its batch: it is
 * checked here against ImportListen and the listen rules, before anything
 * reaches the database.
 */
function toListen(value: unknown): Listen | string {
  if (!isImportListen(value)) {
    const error = isImportListen.errors?.[0];
    return error ? `${error.instancePath.slice(1).replaceAll('/', '.') || 'listen'} ${error.message}` : 'not a listen';
  }
  const { listenedAt, submitted, ...metadata } = value;
  const listen: Listen = { ...metadata, listenedAt: new Date(listenedAt), submitted };
  return listenProblem(listen) ?? listen;
}

/** Each value as toListen takes it, and the listens among them (what is stored or previewed). */
function toListens(values: readonly unknown[]): { converted: (Listen | string)[]; valid: Listen[] } {
  const converted = values.map(toListen);
  return { converted, valid: converted.filter((listen): listen is Listen => typeof listen !== 'string') };
}

/** The checkpoint row of this import, created if new; the upsert locks it until the batch commits. */
async function lockCheckpoint(tx: Transaction<DB>, userId: string, batch: ImportBatch): Promise<CheckpointRow> {
  return tx
    .insertInto('import_checkpoints')
    .values({ user_id: userId, fingerprint: batch.fingerprint, format: batch.format })
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doUpdateSet({ updated_at: new Date() }))
    .returning(CHECKPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
}

function checkBatchSize(batch: ImportBatch): void {
  if (batch.listens.length > batch.records) throw invalidRequest(`a batch of ${batch.records} records cannot carry ${batch.listens.length} listens`);
}

const checkpointMismatch = (consumed: number, batch: ImportBatch) =>
  conflict('CheckpointMismatch', `the checkpoint is at record ${consumed}, not ${batch.from}; resume from there`);

/** Thrown out of a storing transaction, to roll it back, when the batch before this one has not committed yet. */
class CheckpointBehind extends Error {
  constructor(readonly consumed: number) {
    super('the checkpoint is behind the batch');
  }
}

function checkBatchFits(checkpoint: CheckpointRow, batch: ImportBatch): void {
  checkBatchSize(batch);
  if (checkpoint.format !== batch.format) throw invalidRequest(`this file is being imported as ${checkpoint.format}, not ${batch.format}`);
  if (checkpoint.completed_at) throw conflict('ImportComplete', 'this file was already imported completely');
  if (checkpoint.records_consumed < batch.from) throw new CheckpointBehind(checkpoint.records_consumed);
  if (checkpoint.records_consumed !== batch.from) throw checkpointMismatch(checkpoint.records_consumed, batch);
}

/** checkBatchFits before the batch is matched: a checkpoint behind it is the batch in front, still being stored. */
function checkBatchCanFit(checkpoint: CheckpointRow | undefined, batch: ImportBatch): void {
  if (!checkpoint) return;
  try {
    checkBatchFits(checkpoint, batch);
  } catch (error) {
    if (!(error instanceof CheckpointBehind)) throw error;
  }
}

/** A batch's counts from its listens' outcomes; records without a listen count as ignored. */
function tally(batch: ImportBatch, outcomes: readonly (ListenOutcome | PreviewOutcome)[]) {
  const count = (status: ListenOutcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
  const stored = count('stored');
  const duplicate = count('duplicate');
  return { stored, duplicate, ignored: batch.records - stored - duplicate, ignoredListens: reportedIgnored(outcomes) };
}

/** The ignored listens a batch answer names, with their places in the batch. */
function reportedIgnored(outcomes: readonly ({ status: string } | { status: 'ignored'; reason: string })[]) {
  return outcomes.flatMap((outcome, index) => ('reason' in outcome ? [{ index, reason: outcome.reason }] : [])).slice(0, REPORTED_IGNORED);
}

/** The listens of a batch as ingest takes them, or why each is ignored. */
function inOrder<T>(converted: readonly (Listen | string)[], outcomes: readonly T[]): (T | { status: 'ignored'; reason: string })[] {
  let next = 0;
  return converted.map((listen) => (typeof listen === 'string' ? { status: 'ignored', reason: listen } : outcomes[next++]!));
}

/**
 * A dry run of a batch: counted as importBatch would count it, and nothing
 * written (no catalog entry, scrobble or checkpoint). Only a completed file is
 * refused; `from` is not checked, since nothing advances the checkpoint.
 */
async function previewBatch(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, userId: string, batch: ImportBatch): Promise<ImportBatchResult> {
  checkBatchSize(batch);
  const current = await readCheckpoint(db, userId, batch.fingerprint);
  if (current?.completed_at) throw conflict('ImportComplete', 'this file was already imported completely');
  const { converted, valid } = toListens(batch.listens);
  const outcomes = inOrder(converted, await previewListens(db, config, userId, valid));
  const claims = outcomes.flatMap((outcome) => (outcome.status === 'stored' ? [{ key: outcome.key, newSong: outcome.newSong }] : []));
  const newSongs = claims.filter((claim) => claim.newSong).length;
  return { ...tally(batch, outcomes), newSongs, claims, status: toStatus(batch.fingerprint, current) };
}

/** A batch's listens checked and matched to the catalog, ready to store in the caller's transaction. */
export interface PreparedListens {
  converted: (Listen | string)[];
  valid: Listen[];
  tracks: ListenTrack[];
}

/**
 * Checks each value as an import listen (ImportListen and the listen rules) and matches the valid
 * ones, in short transactions of their own, before the storing transaction: what a sync (core/sync:
 * an import whose records come from an API) does before storing. importBatch matches known songs
 * in one snapshot instead (matchBatch).
 */
export async function prepareListens(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, values: readonly unknown[]): Promise<PreparedListens> {
  const { converted, valid } = toListens(values);
  return { converted, valid, tracks: await resolveListenTracks(db, config, valid) };
}

/**
 * Stores prepared listens in the caller's transaction, under the one duplicate rule; each value's
 * outcome in order. `originTarget`: the relay target at the service the plays came from (a sync).
 */
export async function storePrepared(
  tx: Transaction<DB>,
  userId: string,
  prepared: PreparedListens,
  source: string,
  originTarget: string | null = null,
): Promise<(ListenOutcome | { status: 'ignored'; reason: string })[]> {
  return inOrder(prepared.converted, await storeListens(tx, userId, prepared.valid, prepared.tracks, source, originTarget));
}

/**
 * How long a batch that arrived before the one in front of it (its `from` past the checkpoint)
 * waits for that one to commit: runImport keeps one batch in flight ahead, and sends it again
 * should it be refused for this after the one in front was stored (that one may be creating
 * catalog entries, or waiting its turn on the embedded database, for longer).
 */
const BEHIND_WAIT_MS = 1_000;

const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23503';

/**
 * Stores one batch of an import and advances the file's checkpoint in the same transaction: a
 * batch is either wholly applied and counted, or not at all. Records the client could not turn
 * into listens count as ignored. The listens are matched first, outside any transaction
 * (matchBatch), so a batch sent while the one before it is being stored is matched meanwhile and
 * then waits only for that one's commit. The storing transaction locks the checkpoint and checks
 * the batch fits (a batch that cannot costs nothing more), then writes the gaps the listens fill,
 * and in one statement the scrobbles, the checkpoint's advance and the outbox question. A track a
 * catalog edit removed between the match and the store (merged away) fails the insert's foreign
 * key, and the batch is matched again.
 */
export async function importBatch(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, userId: string, batch: ImportBatch): Promise<ImportBatchResult> {
  if (batch.dryRun) return previewBatch(db, config, userId, batch);
  checkBatchSize(batch);
  // Checked once before matching, so that a batch which cannot fit creates no catalog entries
  // and costs no snapshot; the storing transaction checks again under the checkpoint's lock.
  checkBatchCanFit(await readCheckpoint(db, userId, batch.fingerprint), batch);
  const { converted, valid } = toListens(batch.listens);
  const result = await matchAndStore(db, config, userId, batch, converted, valid);
  // Once the batch has committed, outside the retries that match and store it again.
  if (batch.complete) await settleQueue(db, userId, result.status.stored);
  return result;
}

/** The batch's listens matched and stored, matched again when a catalog edit removed a matched track meanwhile. */
async function matchAndStore(
  db: Database,
  config: Pick<Config, 'unmatchedScrobbles'>,
  userId: string,
  batch: ImportBatch,
  converted: readonly (Listen | string)[],
  valid: readonly Listen[],
): Promise<ImportBatchResult> {
  for (let attempt = 1; ; attempt++) {
    const matched = await matchBatch(db, config, valid);
    try {
      return await storeInTurn(db, userId, batch, converted, valid, matched);
    } catch (error) {
      if (!isForeignKeyViolation(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
    }
  }
}

/**
 * What an import's last batch does before it answers, so the user's first visit after it reads as
 * at steady state. A server's fold job totals an import's plays while they arrive (totals-ahead.ts),
 * a second or so behind: the import totals that rest itself (totalAtImportEnd), and then every
 * all-time read skips the queue. And it analyzes the queue it grew, so the reads that still sum it
 * (windows over the imported years) are planned for its size, and its rows are checked here, not
 * by the first read (vacuum.ts). With no fold job beside it the rest is the whole import, which is
 * left to the job (or, for `earshot import --direct`, totalled by the CLI once it is done).
 */
async function settleQueue(db: Database, userId: string, storedPlays: number): Promise<void> {
  await totalQueuedOf(db, userId, totalAtImportEnd(storedPlays));
  await analyzeGrownQueue(db);
}

/** A batch's listens matched to the catalog: known songs in one snapshot and no lock, the others created in short transactions of their own (found again, never duplicated, if the batch fails after). */
async function matchBatch(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, valid: readonly Listen[]): Promise<MatchedBatch> {
  const known = await matchKnownListens(db, config, valid);
  const missing = valid.filter((_, i) => known.tracks[i] === undefined);
  if (missing.length === 0) return { ...known, tracks: known.tracks as ListenTrack[] };
  const created = await resolveListenTracks(db, config, missing);
  let next = 0;
  return { ...known, tracks: known.tracks.map((track) => track ?? created[next++]!) };
}

/** matchKnownListens's answer with a track (or why there is none) for every listen. */
type MatchedBatch = Omit<KnownListens, 'tracks'> & { tracks: ListenTrack[] };

/**
 * storeBatch's transaction; while the batch in front of this one has not committed, run again
 * once the checkpoint (read without a lock, at growing intervals) shows it has, for up to
 * BEHIND_WAIT_MS.
 */
async function storeInTurn(
  db: Database,
  userId: string,
  batch: ImportBatch,
  converted: readonly (Listen | string)[],
  valid: readonly Listen[],
  matched: MatchedBatch,
): Promise<ImportBatchResult> {
  const deadline = Date.now() + BEHIND_WAIT_MS;
  for (;;) {
    try {
      return await inTransaction(db, (tx) => storeBatch(tx, userId, batch, converted, valid, matched));
    } catch (error) {
      if (!(error instanceof CheckpointBehind)) throw error;
      if (!(await checkpointReaches(db, userId, batch, deadline))) throw checkpointMismatch(error.consumed, batch);
    }
  }
}

/** Whether the checkpoint reaches the batch's `from` by `deadline`, read without a lock at growing intervals. */
async function checkpointReaches(db: Database, userId: string, batch: ImportBatch, deadline: number): Promise<boolean> {
  for (let pause = 2; ; pause = Math.min(2 * pause, 50)) {
    if (((await readCheckpoint(db, userId, batch.fingerprint))?.records_consumed ?? 0) >= batch.from) return true;
    if (Date.now() + pause > deadline) return false;
    await sleep(pause);
  }
}

/** importBatch's storing transaction, with the batch's listens matched before it. */
async function storeBatch(
  tx: Transaction<DB>,
  userId: string,
  batch: ImportBatch,
  converted: readonly (Listen | string)[],
  valid: readonly Listen[],
  { tracks, fillGaps }: MatchedBatch,
): Promise<ImportBatchResult> {
  checkBatchFits(await lockCheckpoint(tx, userId, batch), batch);
  await fillGaps(tx);
  const outcomes = inOrder(
    converted,
    tracks.map((track) => (typeof track === 'string' ? { status: 'ignored' as const, reason: track } : { status: 'matched' as const })),
  );
  const matched = outcomes.filter((outcome) => outcome.status === 'matched').length;
  const ignored = batch.records - matched;
  const { stored, row } = await storeListensCounted<CheckpointRow>(
    tx,
    userId,
    valid,
    tracks,
    `import:${batch.format}`,
    // Raw SQL: it runs inside storeListensCounted's statement, given the count as SQL.
    (storedPlays) =>
      sql`update import_checkpoints set records_consumed = records_consumed + ${batch.records}, stored = stored + ${storedPlays},
        duplicate = duplicate + ${matched} - ${storedPlays}, ignored = ignored + ${ignored},
        completed_at = ${batch.complete ? new Date() : null}::timestamptz, updated_at = now()
      where user_id = ${userId} and fingerprint = ${batch.fingerprint}
      returning ${sql.join(CHECKPOINT_COLUMNS.map((column) => sql.ref(column)))}`,
  );
  return { stored, duplicate: matched - stored, ignored, ignoredListens: reportedIgnored(outcomes), status: toStatus(batch.fingerprint, row) };
}
