/**
 * The catalog's admin edits as a caller asks for them: merges and field fixes of artists, albums
 * and songs, the edit log and undoing an edit. Each is refused to anyone but an admin, each edit
 * is one transaction logged with who made it (log.ts), and ids merged away still name their entry.
 */
import type { CatalogEditKind, Database, StarKind } from '../../../toolkit/db/index.ts';
import { currentIds } from '../aliases.ts';
import { listEdits, recordEdit, requireAdmin, undoEdit, type EditEntry } from './log.ts';
import { mergeAlbums, mergeArtists, mergeSongs } from './merge.ts';
import { updateEntry, type FieldChanges } from './update.ts';

const MERGES = { artist: ['mergeArtists', mergeArtists], album: ['mergeAlbums', mergeAlbums], song: ['mergeSongs', mergeSongs] } as const;
const UPDATES: Record<StarKind, CatalogEditKind> = { artist: 'updateArtist', album: 'updateAlbum', song: 'updateSong' };

/** Merges `from` into `into` (both of `kind`); answers the edit's id. */
export async function mergeEntries(db: Database, adminId: string, kind: StarKind, from: string, into: string): Promise<number> {
  await requireAdmin(db, adminId);
  const [name, merge] = MERGES[kind];
  const [current, target] = await currentIds(db, kind, [from.toLowerCase(), into.toLowerCase()]);
  return recordEdit(db, adminId, name, (edit) => merge(edit, current!, target!));
}

/** Changes the given fields of an entry of `kind`; answers the edit's id. */
export async function updateEntryFields(db: Database, adminId: string, kind: StarKind, id: string, changes: FieldChanges): Promise<number> {
  await requireAdmin(db, adminId);
  const [current] = await currentIds(db, kind, [id.toLowerCase()]);
  return recordEdit(db, adminId, UPDATES[kind], (edit) => updateEntry(edit, kind, current!, changes));
}

/** A page of the edit log, newest first, before the edit `before` when given. */
export async function editLog(db: Database, adminId: string, limit: number, before: number | undefined): Promise<EditEntry[]> {
  await requireAdmin(db, adminId);
  return listEdits(db, limit, before);
}

export async function undoCatalogEdit(db: Database, adminId: string, id: number): Promise<void> {
  await requireAdmin(db, adminId);
  await undoEdit(db, adminId, id);
}
