import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Transaction } from 'kysely';
import { conflict, invalidRequest } from '../../../toolkit/errors.ts';
import { isoDateTime } from '../../../toolkit/schemas.ts';
import type { Config } from '../../../toolkit/config.ts';
import { inTransaction, type Database, type DB } from '../../../toolkit/db/index.ts';
import { previewListens, resolveListenTracks, storeListens, type Listen, type ListenOutcome, type ListenTrack, type PreviewOutcome } from '../ingest.ts';
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

function checkBatchFits(checkpoint: CheckpointRow, batch: ImportBatch): void {
  checkBatchSize(batch);
  if (checkpoint.format !== batch.format) throw invalidRequest(`this file is being imported as ${checkpoint.format}, not ${batch.format}`);
  if (checkpoint.completed_at) throw conflict('ImportComplete', 'this file was already imported completely');
  if (checkpoint.records_consumed !== batch.from) {
    throw conflict('CheckpointMismatch', `the checkpoint is at record ${checkpoint.records_consumed}, not ${batch.from}; resume from there`);
  }
}

/** A batch's counts from its listens' outcomes; records without a listen count as ignored. */
function tally(batch: ImportBatch, outcomes: readonly (ListenOutcome | PreviewOutcome)[]) {
  const count = (status: ListenOutcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
  const stored = count('stored');
  const duplicate = count('duplicate');
  const ignoredListens = outcomes
    .flatMap((outcome, index) => (outcome.status === 'ignored' ? [{ index, reason: outcome.reason }] : []))
    .slice(0, REPORTED_IGNORED);
  return { stored, duplicate, ignored: batch.records - stored - duplicate, ignoredListens };
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
  const converted = batch.listens.map(toListen);
  const outcomes = inOrder(
    converted,
    await previewListens(
      db,
      config,
      userId,
      converted.filter((listen): listen is Listen => typeof listen !== 'string'),
    ),
  );
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
 * ones, in short transactions of their own, before the batch's transaction: what importBatch and
 * a sync (core/sync: an import whose records come from an API) do before storing.
 */
export async function prepareListens(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, values: readonly unknown[]): Promise<PreparedListens> {
  const converted = values.map(toListen);
  const valid = converted.filter((listen): listen is Listen => typeof listen !== 'string');
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
 * Stores one batch of an import and advances the file's checkpoint in the same
 * transaction: a batch is either wholly applied and counted, or not at all.
 * Records the client could not turn into listens count as ignored. Catalog
 * matching comes first, in short transactions of its own (what it creates is
 * found again, never duplicated, if the batch fails after); the checkpoint is
 * checked before it, to spare the work for a batch that cannot fit, and again
 * under its lock in the final transaction.
 */
export async function importBatch(db: Database, config: Pick<Config, 'unmatchedScrobbles'>, userId: string, batch: ImportBatch): Promise<ImportBatchResult> {
  if (batch.dryRun) return previewBatch(db, config, userId, batch);
  const current = await readCheckpoint(db, userId, batch.fingerprint);
  if (current) checkBatchFits(current, batch);
  const prepared = await prepareListens(db, config, batch.listens);
  return inTransaction(db, async (tx) => {
    const checkpoint = await lockCheckpoint(tx, userId, batch);
    checkBatchFits(checkpoint, batch);
    const perListen = await storePrepared(tx, userId, prepared, `import:${batch.format}`);
    const { stored, duplicate, ignored, ignoredListens } = tally(batch, perListen);
    const updated = await tx
      .updateTable('import_checkpoints')
      .set((eb) => ({
        records_consumed: eb('records_consumed', '+', batch.records),
        stored: eb('stored', '+', stored),
        duplicate: eb('duplicate', '+', duplicate),
        ignored: eb('ignored', '+', ignored),
        completed_at: batch.complete ? new Date() : null,
        updated_at: new Date(),
      }))
      .where('user_id', '=', userId)
      .where('fingerprint', '=', batch.fingerprint)
      .returning(CHECKPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    return { stored, duplicate, ignored, ignoredListens, status: toStatus(batch.fingerprint, updated) };
  });
}
