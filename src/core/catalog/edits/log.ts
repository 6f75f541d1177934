import { sql } from 'kysely';
import { conflict, forbidden, notFound } from '../../../toolkit/errors.ts';
import { isAdmin } from '../../auth/index.ts';
import { inTransaction, type CatalogEditKind, type Database } from '../../../toolkit/db/index.ts';
import { EditRecorder, restore, type Changes, type Tx } from './recorder.ts';

/** Edits and undos take this advisory lock (an arbitrary constant): rare admin work, one at a time, so an undo's check of later edits cannot race a new edit. */
const CATALOG_EDIT_LOCK = 0x6361_7461_6c67;

export async function requireAdmin(db: Database, userId: string): Promise<void> {
  if (!(await isAdmin(db, userId))) {
    throw forbidden('Only an admin may edit the shared catalog: ask an admin to make this change, or to run `earshot user promote <handle>`');
  }
}

export interface EditContext {
  tx: Tx;
  recorder: EditRecorder;
  /** The edit's id, for rows (aliases) that name it. */
  editId: number;
}

/**
 * Runs one catalog edit in one transaction and logs it with what undoing it needs. `work` does
 * the edit through the recorder and returns the log's one-line summary.
 */
export async function recordEdit(db: Database, userId: string, kind: CatalogEditKind, work: (edit: EditContext) => Promise<string>): Promise<number> {
  return inTransaction(db, async (tx) => {
    await sql`select pg_advisory_xact_lock(${CATALOG_EDIT_LOCK}::bigint)`.execute(tx);
    const { id } = await tx
      .insertInto('catalog_edits')
      .values({ user_id: userId, kind, summary: '', changes: '{}', touched: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recorder = new EditRecorder(tx);
    const summary = await work({ tx, recorder, editId: id });
    await tx
      .updateTable('catalog_edits')
      .set({ summary, changes: JSON.stringify(recorder.changes), touched: recorder.touched() })
      .where('id', '=', id)
      .execute();
    return id;
  });
}

/**
 * Undoes an edit, restoring every row it wrote. Only an edit no later edit still in force has
 * touched the same rows of may be undone (undo those first): restoring it would overwrite them.
 */
export async function undoEdit(db: Database, userId: string, id: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    await sql`select pg_advisory_xact_lock(${CATALOG_EDIT_LOCK}::bigint)`.execute(tx);
    const edit = await tx.selectFrom('catalog_edits').select(['changes', 'undone_at']).where('id', '=', id).executeTakeFirst();
    if (!edit) throw notFound(`no catalog edit ${id}`);
    if (edit.undone_at) throw conflict('UndoConflict', `catalog edit ${id} is already undone`);
    const later = await tx
      .selectFrom('catalog_edits')
      .select('id')
      .where('id', '>', id)
      .where('undone_at', 'is', null)
      .where(sql<boolean>`touched && (select touched from catalog_edits where id = ${id})`)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (later) throw conflict('UndoConflict', `catalog edit ${later.id} was made later and changed the same entries: undo it first`);
    await restore(tx, edit.changes as Changes);
    await tx.updateTable('catalog_edits').set({ undone_at: new Date(), undone_by: userId }).where('id', '=', id).execute();
  });
}

export interface EditEntry {
  id: number;
  kind: CatalogEditKind;
  /** The admin's handle; null once their account is gone. */
  handle: string | null;
  createdAt: Date;
  summary: string;
  undoneAt: Date | null;
}

/** The log, newest first, `limit` edits older than `before` (an edit id). */
export async function listEdits(db: Database, limit: number, before: number | undefined): Promise<EditEntry[]> {
  let query = db
    .selectFrom('catalog_edits as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.id', 'e.kind', 'u.handle', 'e.created_at', 'e.summary', 'e.undone_at'])
    .orderBy('e.id', 'desc')
    .limit(limit);
  if (before !== undefined) query = query.where('e.id', '<', before);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, kind: row.kind, handle: row.handle, createdAt: row.created_at, summary: row.summary, undoneAt: row.undone_at }));
}
