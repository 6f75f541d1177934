/**
 * Brings library_files in line with the walked audio files. One query reads what the database
 * has; a file whose size and modification time are unchanged is not read again. New and changed
 * files are read, matched into the catalog and written in short transactions; rows that stay keep
 * their ids (an upsert on (source, path)).
 */
import type { Transaction } from 'kysely';
import { resolveTracks } from '../../catalog/resolve.ts';
import type { Database, DB } from '../../../toolkit/db/index.ts';
import { inTransaction } from '../../../toolkit/db/retry.ts';
import { TAG_READER_VERSION, type FileTags } from '../tags.ts';
import { inChunks } from './chunks.ts';
import type { SkipList } from './report.ts';
import type { WalkedFile } from './walk.ts';

/** Files matched and written per transaction: short enough not to hold catalog locks for long. */
const FILES_PER_TRANSACTION = 20;

interface StoredFile {
  id: string;
  path: string;
  size: string;
  modified_at: Date;
  cover: string | null;
  file_id: string | null;
  tag_reader: number;
}

export interface FileDiff {
  added: WalkedFile[];
  /** With the id of the row each one updates. */
  changed: (WalkedFile & { id: string })[];
  unchanged: number;
  /** Ids of rows whose file is gone. */
  gone: string[];
  /** Unchanged files whose folder image came, went or changed: id and new cover. */
  covers: { id: string; cover: string | null }[];
}

/** A file's cover when it has no embedded picture: its directory's folder image, if any. */
type FolderCover = (dir: string) => string | null;

export async function diffFiles(db: Database, sourceId: number, walked: readonly WalkedFile[], folderCover: FolderCover): Promise<FileDiff> {
  const stored: StoredFile[] = await db
    .selectFrom('library_files')
    .select(['id', 'path', 'size', 'modified_at', 'cover', 'file_id', 'tag_reader'])
    .where('source_id', '=', sourceId)
    .execute();
  const byPath = new Map(stored.map((row) => [row.path, row]));
  const diff: FileDiff = { added: [], changed: [], unchanged: 0, gone: [], covers: [] };
  for (const file of walked) {
    const row = byPath.get(file.path);
    byPath.delete(file.path);
    if (!row) diff.added.push(file);
    else if (fileChanged(row, file)) diff.changed.push({ ...file, id: row.id });
    else {
      diff.unchanged++;
      const cover = row.cover === 'embedded' ? row.cover : folderCover(file.dir);
      if (cover !== row.cover) diff.covers.push({ id: row.id, cover });
    }
  }
  diff.gone = [...byPath.values()].map((row) => row.id);
  return diff;
}

/**
 * Whether a file is to be read again: it is not what was read last time (other size or time, or, on a
 * file host, another file put at its path), or an older tag reader read it.
 */
function fileChanged(row: StoredFile, file: WalkedFile): boolean {
  const other = Number(row.size) !== file.size || row.modified_at.getTime() !== file.modifiedMs || (file.fileId ?? null) !== row.file_id;
  return other || row.tag_reader < TAG_READER_VERSION;
}

export async function deleteFiles(db: Database, ids: readonly string[]): Promise<void> {
  await inChunks(ids, 1000, (chunk) => db.deleteFrom('library_files').where('id', 'in', chunk).execute());
}

/** Sets new covers on unchanged files, one statement per distinct cover. */
export async function updateCovers(db: Database, covers: FileDiff['covers']): Promise<void> {
  const byCover = new Map<string | null, string[]>();
  for (const { id, cover } of covers) {
    const ids = byCover.get(cover);
    if (ids) ids.push(id);
    else byCover.set(cover, [id]);
  }
  for (const [cover, ids] of byCover) {
    await inChunks(ids, 1000, (chunk) =>
      db.updateTable('library_files').set({ cover, cover_etag: null, updated_at: new Date() }).where('id', 'in', chunk).execute(),
    );
  }
}

interface ReadFile {
  file: WalkedFile;
  tags: FileTags;
}

/** Reads a file's tags: from disk for a local folder, over byte ranges for a file host. */
export type TagReader = (file: WalkedFile) => Promise<FileTags>;

export interface WriteContext {
  db: Database;
  sourceId: number;
  /** The source's owner (null: server-wide). */
  userId: string | null;
  readTags: TagReader;
  directoryIds: Map<string, string>;
  folderCover: FolderCover;
  skips: SkipList;
  /** Called between transactions; throws to stop the scan (its lease is gone). */
  checkpoint(): void;
}

/**
 * Reads, matches and writes `files` in transactions of FILES_PER_TRANSACTION, reading the next
 * slice's tags while the current one is written. Returns the paths of files that could not be
 * read (they are skipped, with the reason).
 */
export async function writeFiles(ctx: WriteContext, files: readonly WalkedFile[]): Promise<Set<string>> {
  const unreadable = new Set<string>();
  const slices: WalkedFile[][] = [];
  for (let at = 0; at < files.length; at += FILES_PER_TRANSACTION) slices.push(files.slice(at, at + FILES_PER_TRANSACTION));
  let reading = slices.length > 0 ? readSlice(ctx, slices[0]!, unreadable) : undefined;
  for (let i = 0; i < slices.length; i++) {
    const read = await reading!;
    reading = i + 1 < slices.length ? readSlice(ctx, slices[i + 1]!, unreadable) : undefined;
    ctx.checkpoint();
    if (read.length > 0) await inTransaction(ctx.db, (tx) => writeSlice(tx, ctx, read));
  }
  return unreadable;
}

/** Tags of a slice's files, read concurrently; never rejects (unreadable files are skipped). */
async function readSlice(ctx: WriteContext, files: WalkedFile[], unreadable: Set<string>): Promise<ReadFile[]> {
  const read = await Promise.all(
    files.map(async (file) => {
      try {
        return { file, tags: await ctx.readTags(file) };
      } catch (error) {
        unreadable.add(file.path);
        ctx.skips.add({ path: file.path, reason: `unreadable audio: ${(error as Error).message}` });
        return undefined;
      }
    }),
  );
  return read.filter((entry): entry is ReadFile => entry !== undefined);
}

async function writeSlice(tx: Transaction<DB>, ctx: WriteContext, read: ReadFile[]): Promise<void> {
  // Files always make catalog entries, whatever UNMATCHED_SCROBBLES says about scrobbles.
  const tracks = await resolveTracks(
    tx,
    read.map((entry) => entry.tags.metadata),
    true,
  );
  const now = new Date();
  const rows = read.map(({ file, tags }, i) => ({
    source_id: ctx.sourceId,
    user_id: ctx.userId,
    directory_id: ctx.directoryIds.get(file.dir)!,
    name: file.name,
    path: file.path,
    track_id: tracks[i]!.trackId,
    size: file.size,
    modified_at: new Date(file.modifiedMs),
    content_type: tags.contentType,
    suffix: tags.suffix,
    bit_rate: tags.bitRate ?? null,
    duration_ms: tags.durationMs ?? null,
    tag_reader: TAG_READER_VERSION,
    year: tags.year ?? null,
    cover: tags.hasPicture ? 'embedded' : ctx.folderCover(file.dir),
    // The stored validator named the old bytes: the next serve stores the new one.
    cover_etag: null,
    file_id: file.fileId ?? null,
    client_modified: file.clientModified ?? null,
    server_modified: file.serverModified ?? null,
    updated_at: now,
  }));
  await tx
    .insertInto('library_files')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['source_id', 'path']).doUpdateSet((eb) => ({
        directory_id: eb.ref('excluded.directory_id'),
        name: eb.ref('excluded.name'),
        track_id: eb.ref('excluded.track_id'),
        size: eb.ref('excluded.size'),
        modified_at: eb.ref('excluded.modified_at'),
        content_type: eb.ref('excluded.content_type'),
        suffix: eb.ref('excluded.suffix'),
        bit_rate: eb.ref('excluded.bit_rate'),
        duration_ms: eb.ref('excluded.duration_ms'),
        tag_reader: eb.ref('excluded.tag_reader'),
        year: eb.ref('excluded.year'),
        cover: eb.ref('excluded.cover'),
        cover_etag: eb.ref('excluded.cover_etag'),
        file_id: eb.ref('excluded.file_id'),
        client_modified: eb.ref('excluded.client_modified'),
        server_modified: eb.ref('excluded.server_modified'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
