/**
 * A file host's folder as the library will hold it: built from a full listing, or from what the
 * database holds with the provider's changes applied, and handed to the one reconcile the local
 * scan uses. Every folder is kept (empty ones too), so a change naming a folder by its provider
 * id always finds it.
 */
import type { Database } from '../../toolkit/db/index.ts';
import { parentPath } from '../library/scan/directories.ts';
import { SkipList } from '../library/scan/report.ts';
import type { Walk, WalkedFile } from '../library/scan/walk.ts';
import { isAudioFile } from '../library/tags.ts';
import type { RemoteChange, RemoteEntry } from '../providers/types.ts';

const childPath = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const depth = (path: string) => (path === '' ? 0 : path.split('/').length);

export class Listing {
  /** By key: the path, lower-cased on a host whose paths ignore case. */
  private readonly folders = new Map<string, { path: string; id: string | null }>();
  private readonly files = new Map<string, WalkedFile>();
  private readonly skipped = new SkipList();

  /** `ignoresCase`: paths differing only in case are one path (filehostB, as Dropbox's are). */
  constructor(
    private readonly ignoresCase: boolean,
    rootId: string | null,
  ) {
    this.folders.set('', { path: '', id: rootId });
  }

  /** The listing the database holds for a source. */
  static async stored(db: Database, sourceId: number, ignoresCase: boolean): Promise<Listing> {
    const [folders, files] = await Promise.all([
      db.selectFrom('library_directories').select(['path', 'file_id']).where('source_id', '=', sourceId).orderBy('path').execute(),
      db
        .selectFrom('library_files')
        .select(['path', 'name', 'size', 'modified_at', 'file_id', 'client_modified', 'server_modified'])
        .where('source_id', '=', sourceId)
        .execute(),
    ]);
    const listing = new Listing(ignoresCase, folders.find((row) => row.path === '')?.file_id ?? null);
    for (const row of folders) if (row.path !== '') listing.folders.set(listing.key(row.path), { path: row.path, id: row.file_id });
    for (const row of files) {
      listing.files.set(listing.key(row.path), {
        path: row.path,
        dir: parentPath(row.path),
        name: row.name,
        size: Number(row.size),
        modifiedMs: row.modified_at.getTime(),
        fileId: row.file_id ?? undefined,
        clientModified: row.client_modified ?? undefined,
        serverModified: row.server_modified ?? undefined,
      });
    }
    return listing;
  }

  private key(path: string): string {
    return this.ignoresCase ? path.toLowerCase() : path;
  }

  /** Applies a change; `replace` false keeps the first of two entries at one path (a full listing: Drive allows equal names). */
  apply(change: RemoteChange, replace = true): void {
    if (change.kind === 'removed') return this.remove(change.path);
    if (change.path === '') return;
    const key = this.key(change.path);
    if (!replace && (this.files.has(key) || this.folders.has(key))) {
      return this.skipped.add({ path: change.path, reason: 'another entry has the same path; only the first is kept' });
    }
    if (change.kind === 'folder') {
      this.files.delete(key);
      this.folders.set(key, { path: this.spelled(change.path), id: change.id });
    } else if (!isAudioFile(change.name)) {
      this.skipped.add({ path: change.path, reason: 'not an audio file' });
    } else {
      if (this.folders.has(key)) this.remove(change.path);
      this.files.set(key, this.file(change));
    }
  }

  private file(entry: RemoteEntry): WalkedFile {
    const path = this.spelled(entry.path);
    const modified = entry.modifiedAt ?? entry.serverModified ?? new Date(0);
    return {
      path,
      dir: parentPath(path),
      name: entry.name,
      size: entry.size ?? 0,
      modifiedMs: Math.floor(modified.getTime()),
      fileId: entry.id,
      clientModified: entry.clientModified,
      serverModified: entry.serverModified,
    };
  }

  /**
   * The path under its parent folder's spelling (a host ignoring case may spell a parent
   * differently in a child's path); missing parent folders are made.
   */
  private spelled(path: string): string {
    const parent = parentPath(path);
    const name = path.slice(parent === '' ? 0 : parent.length + 1);
    const stored = this.folders.get(this.key(parent));
    if (stored) return childPath(stored.path, name);
    const parentSpelled = this.spelled(parent);
    this.folders.set(this.key(parent), { path: parentSpelled, id: null });
    return childPath(parentSpelled, name);
  }

  /** A path and everything below it leave; '' empties the listing. */
  private remove(path: string): void {
    const key = this.key(path);
    const below = key === '' ? '' : `${key}/`;
    const gone = (candidate: string) => candidate === key || candidate.startsWith(below);
    for (const candidate of [...this.files.keys()]) if (gone(candidate)) this.files.delete(candidate);
    for (const candidate of [...this.folders.keys()]) if (candidate !== '' && gone(candidate)) this.folders.delete(candidate);
  }

  /** The provider id of every folder and file, by path: what a host's changes are resolved with. */
  lookup(): (providerId: string) => Promise<string | null> {
    const paths = new Map<string, string>();
    for (const folder of this.folders.values()) if (folder.id !== null) paths.set(folder.id, folder.path);
    for (const file of this.files.values()) if (file.fileId !== undefined) paths.set(file.fileId, file.path);
    return async (providerId) => paths.get(providerId) ?? null;
  }

  toWalk(): Walk {
    const folders = [...this.folders.values()].sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
    const folderIds = new Map(folders.flatMap((folder) => (folder.id === null ? [] : [[folder.path, folder.id] as const])));
    const audio = [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { directories: folders.map((folder) => folder.path), audio, folderImages: new Map(), folderIds, skipped: this.skipped };
  }
}
