/**
 * Drive's changes.list, turned into changes of the mirrored tree. Drive reports a change per
 * file id with the file's state now (name, parent, trashed) and knows nothing of paths, so each
 * change is placed by walking up its parents: through the root, through folders changed in the
 * same batch, or through folders the mirror already has (the caller's lookup).
 */
import { ProviderError } from '../errors.ts';
import { providerJson } from '../http.ts';
import type { PathLookup, RemoteChange, RemoteEntry } from '../types.ts';
import { type DriveApi, type DriveFile, FILE_FIELDS, FOLDER_MIME, PAGE_SIZE, PROVIDER, isUnder, joinPath, listSubtree, toEntry } from './drive.ts';

interface DriveChange {
  /** Absent for a change of a shared drive itself. */
  fileId?: string;
  removed?: boolean;
  /** Absent when removed (deleted for good, or no longer shared with the user). */
  file?: DriveFile;
}

interface ChangePage {
  changes?: DriveChange[];
  nextPageToken?: string;
  /** Only on the last page: the cursor for the next call. */
  newStartPageToken?: string;
}

type FileChange = DriveChange & { fileId: string };

const CHANGE_FIELDS = `nextPageToken,newStartPageToken,changes(fileId,removed,file(${FILE_FIELDS},trashed))`;

/**
 * Every change after `cursor`, the latest per file, and the cursor after them; 'reset' when
 * Drive no longer knows the page token (it answers 400 or 404 for a bad or expired one).
 */
export async function fetchChanges(api: DriveApi, cursor: string): Promise<{ changes: FileChange[]; cursor: string } | 'reset'> {
  const latest = new Map<string, FileChange>();
  let pageToken = cursor;
  for (;;) {
    const response = await api.get('/changes', { pageToken, fields: CHANGE_FIELDS, includeRemoved: 'true', pageSize: PAGE_SIZE, spaces: 'drive' }, [400, 404]);
    if (!response.ok) {
      await response.body?.cancel();
      return 'reset';
    }
    const page = await providerJson<ChangePage>(PROVIDER, response);
    for (const change of page.changes ?? []) {
      if (change.fileId === undefined) continue;
      latest.delete(change.fileId);
      latest.set(change.fileId, change as FileChange);
    }
    if (page.newStartPageToken) return { changes: [...latest.values()], cursor: page.newStartPageToken };
    if (!page.nextPageToken) throw new ProviderError('Unavailable', PROVIDER, `${PROVIDER} sent a page of changes with neither a next page nor a new cursor`);
    pageToken = page.nextPageToken;
  }
}

/** Where something is now: its path, and the mirrored folder path it was placed through (null: through the root). */
interface Placed {
  path: string;
  via: string | null;
}

/** Places files of a batch of changes in the tree, remembering each folder's place. */
class Placer {
  private readonly batch = new Map<string, DriveFile>();
  private readonly folders = new Map<string, Placed | null>();

  constructor(
    private readonly rootId: string,
    changes: FileChange[],
    private readonly lookup: PathLookup,
  ) {
    for (const change of changes) if (!change.removed && change.file) this.batch.set(change.fileId, change.file);
  }

  /** Where a file is now, or null when trashed or outside the tree. */
  async place(file: DriveFile, visiting = new Set<string>()): Promise<Placed | null> {
    const parent = file.parents?.[0];
    if (file.trashed || parent === undefined) return null;
    const folder = await this.folder(parent, visiting);
    return folder && { path: joinPath(folder.path, file.name), via: folder.via };
  }

  private async folder(id: string, visiting: Set<string>): Promise<Placed | null> {
    if (id === this.rootId) return { path: '', via: null };
    if (this.folders.has(id)) return this.folders.get(id)!;
    const file = this.batch.get(id);
    let placed: Placed | null;
    if (!file) {
      const path = await this.lookup(id);
      placed = path === null ? null : { path, via: path };
    } else if (file.mimeType !== FOLDER_MIME || visiting.has(id)) {
      // Not a folder, or a loop of parents Drive should never send: nothing can be placed in it.
      placed = null;
    } else {
      visiting.add(id);
      placed = await this.place(file, visiting);
    }
    this.folders.set(id, placed);
    return placed;
  }
}

/** The items not below another one, shallowest first. */
function outermost<T>(items: T[], pathOf: (item: T) => string): T[] {
  const kept: T[] = [];
  for (const item of [...items].sort((a, b) => depth(pathOf(a)) - depth(pathOf(b)))) {
    if (!kept.some((other) => isUnder(pathOf(item), pathOf(other)))) kept.push(item);
  }
  return kept;
}

const depth = (path: string) => path.split('/').length;

/**
 * The batch as changes to apply in order: every removal (old paths, as the mirror has them)
 * first, then entries shallowest first, so a parent is always in place before its children.
 * Something renamed or moved is removed at its old path and added at its new one; a folder that
 * moved or arrived from outside the tree is listed again, because Drive reports only the folder,
 * not what moved along with it.
 */
export async function treeChanges(api: DriveApi, rootId: string, changes: FileChange[], lookup: PathLookup): Promise<RemoteChange[]> {
  const placer = new Placer(rootId, changes, lookup);
  const removed: string[] = [];
  const found: { entry: RemoteEntry; via: string | null; moved: boolean }[] = [];
  for (const change of changes) {
    if (change.fileId === rootId) continue;
    const file = change.removed ? undefined : change.file;
    const placed = file ? await placer.place(file) : null;
    const entry = file && placed ? toEntry(file, placed.path) : null;
    const old = await lookup(change.fileId);
    if (old !== null && old !== entry?.path) removed.push(old);
    if (entry && placed) found.push({ entry, via: placed.via, moved: old !== entry.path });
  }
  // Placed through a mirrored folder below something that moved or went: that folder moved or
  // went along with it, so the path is stale (the listing of the moved folder has the new one).
  const fresh = found.filter(({ via }) => via === null || !removed.some((path) => isUnder(via, path)));
  const entries = new Map(fresh.map(({ entry }) => [entry.id, entry]));
  const relisted = outermost(
    fresh.filter(({ entry, moved }) => moved && entry.kind === 'folder').map(({ entry }) => entry),
    (entry) => entry.path,
  );
  for (const folder of relisted) {
    for (const entry of await listSubtree(api, folder.id, folder.path)) entries.set(entry.id, entry);
  }
  const removals = outermost(removed, (path) => path).map((path): RemoteChange => ({ kind: 'removed', path }));
  return [...removals, ...[...entries.values()].sort((a, b) => depth(a.path) - depth(b.path))];
}
