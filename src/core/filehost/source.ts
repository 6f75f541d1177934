/**
 * A user's file host mirror: one library source per user and host, rooted at the folder chosen
 * when connecting. Choosing another folder starts the mirror afresh.
 */
import type { Selectable } from 'kysely';
import type { Database, LibrarySourcesTable } from '../../toolkit/db/index.ts';
import { DEFAULT_FOLDER } from '../providers/connect.ts';
import { existingConnection } from '../providers/connections.ts';
import type { FileHostName } from './hosts.ts';

export type FileHostSource = Selectable<LibrarySourcesTable>;

export async function fileHostSource(db: Database, userId: string, host: FileHostName): Promise<FileHostSource | undefined> {
  return db.selectFrom('library_sources').selectAll().where('user_id', '=', userId).where('kind', '=', host).executeTakeFirst();
}

/** The root directory's name: the folder's own name ('/' is the whole drive, named after the host). */
export const folderName = (host: FileHostName, folder: string) => folder.split('/').filter(Boolean).at(-1) ?? host;

/**
 * The user's source for the host, mirroring `folder` (the current one, or DEFAULT_FOLDER for a
 * first one, when absent). Only for a connected host: NotConnected otherwise.
 */
export async function ensureFileHostSource(db: Database, userId: string, host: FileHostName, folder?: string): Promise<FileHostSource> {
  await existingConnection(db, userId, host);
  const existing = await fileHostSource(db, userId, host);
  if (existing && (folder === undefined || existing.root === folder)) return existing;
  const root = folder ?? DEFAULT_FOLDER;
  if (existing) await db.deleteFrom('library_sources').where('id', '=', existing.id).execute();
  return db
    .insertInto('library_sources')
    .values({ kind: host, user_id: userId, name: folderName(host, root), root })
    .onConflict((oc) => oc.constraint('library_sources_once').doUpdateSet({ updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
