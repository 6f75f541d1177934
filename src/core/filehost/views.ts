/**
 * A file host folder as spec 2.6 shows it, read from the mirror in the database (fast, and
 * unaffected by the host being down). Every field is a string, '' where there is no value, except
 * filehostB's clientModified / serverModified (date-times). Paths shown are the host's own
 * (the mirrored folder's path joined with the path below it), as `at` takes them.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { Database, LibraryDirectoriesTable, LibraryFilesTable } from '../../toolkit/db/index.ts';
import { libraryNotFound } from '../library/errors.ts';
import { isUuid } from '../library/known-ids.ts';
import { IGNORES_CASE, type FileHostName } from './hosts.ts';
import type { FileHostSource } from './source.ts';

const Text = Type.String();

export const DirectoryItem = Type.Object({ id: Text, name: Text, fileId: Text, path: Text, parentId: Text, createdAt: Text, updatedAt: Text });
export const FileA = Type.Object({ id: Text, name: Text, fileId: Text, directoryId: Text, trackId: Text, createdAt: Text, updatedAt: Text });
const FileB = Type.Object({
  ...FileA.properties,
  pathLower: Text,
  pathDisplay: Text,
  clientModified: Type.String({ format: 'date-time' }),
  serverModified: Type.String({ format: 'date-time' }),
});
export const listing = <F extends typeof FileA | typeof FileB>(file: F) =>
  Type.Object({
    files: Type.Array(file),
    directory: Type.Union([DirectoryItem, Type.Object({})], { description: 'the folder listed' }),
    parentDirectory: Type.Union([DirectoryItem, Type.Object({})], { description: 'its parent; {} for the root (the mirrored folder, or the music folder)' }),
    directories: Type.Array(DirectoryItem),
  });
export const LISTINGS = { filehostA: listing(FileA), filehostB: listing(FileB) } as const;

export type Directory = Selectable<LibraryDirectoriesTable>;
type File = Selectable<LibraryFilesTable>;

/** The host's path of a path below the mirrored folder. */
const hostPath = (root: string, path: string) => (path === '' ? root : `${root === '/' ? '' : root}/${path}`);

/** How a listing shows its source: paths as the source names them, and its kind of file. */
export interface ListingStyle<F> {
  path: (relative: string) => string;
  file: (row: File) => F;
}

function directoryItem(style: ListingStyle<unknown>, row: Directory): Static<typeof DirectoryItem> {
  return {
    id: row.id,
    name: row.name,
    fileId: row.file_id ?? '',
    path: style.path(row.path),
    parentId: row.parent_id ?? '',
    createdAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
  };
}

/** The fields every listed file has (filehostA's, and the local folder's). */
export function fileItem(row: File): Static<typeof FileA> {
  return {
    id: row.id,
    name: row.name,
    fileId: row.file_id ?? '',
    directoryId: row.directory_id,
    trackId: row.track_id ?? '',
    createdAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
  };
}

function hostStyle(host: FileHostName, source: FileHostSource): ListingStyle<Static<typeof FileA> | Static<typeof FileB>> {
  const path = (relative: string) => hostPath(source.root, relative);
  if (host === 'filehostA') return { path, file: fileItem };
  return {
    path,
    file: (row) => {
      const pathDisplay = path(row.path);
      return {
        ...fileItem(row),
        pathLower: pathDisplay.toLowerCase(),
        pathDisplay,
        clientModified: isoDateTime(row.client_modified ?? row.modified_at),
        serverModified: isoDateTime(row.server_modified ?? row.modified_at),
      };
    },
  };
}

/**
 * The directory `at` names: absent, the mirrored folder; a path (starting with '/') at the host,
 * which must be in the mirrored folder; else the host's id of a folder, or a library directory id.
 */
async function findDirectory(db: Database, host: FileHostName, source: FileHostSource, at: string | undefined): Promise<Directory> {
  const query = db.selectFrom('library_directories').selectAll().where('source_id', '=', source.id);
  let row: Directory | undefined;
  if (at === undefined || at === '') row = await query.where('path', '=', '').executeTakeFirst();
  else if (at.startsWith('/')) {
    const below = pathBelow(source.root, at.replace(/(.)\/+$/, '$1'), IGNORES_CASE[host]);
    if (below === null) throw libraryNotFound(`${at} is not in the mirrored folder ${source.root}`);
    row = IGNORES_CASE[host]
      ? await query.where((eb) => eb(eb.fn('lower', ['path']), '=', below.toLowerCase())).executeTakeFirst()
      : await query.where('path', '=', below).executeTakeFirst();
  } else {
    row = await query.where((eb) => eb.or([eb('file_id', '=', at), ...(isUuid(at) ? [eb('id', '=', at.toLowerCase())] : [])])).executeTakeFirst();
  }
  if (row) return row;
  if (at === undefined || at === '') throw libraryNotFound(`${source.root} is not mirrored yet: a sync runs after connecting, or start one with app.svc.${host}.sync`);
  throw libraryNotFound(`no folder ${at} in the mirror of ${source.root}`);
}

/** `path` relative to `root`, or null when it is not inside it. */
function pathBelow(root: string, path: string, ignoresCase: boolean): string | null {
  const fold = (text: string) => (ignoresCase ? text.toLowerCase() : text);
  if (root === '/') return path.slice(1);
  if (fold(path) === fold(root)) return '';
  return fold(path).startsWith(`${fold(root)}/`) ? path.slice(root.length + 1) : null;
}

/** A directory's files and subdirectories (by name) and its parent ({} for a source's root), in spec 2.6's shape. */
export async function directoryListing<F>(db: Database, directory: Directory, style: ListingStyle<F>) {
  const [parent, directories, files] = await Promise.all([
    directory.parent_id === null ? undefined : db.selectFrom('library_directories').selectAll().where('id', '=', directory.parent_id).executeTakeFirst(),
    db.selectFrom('library_directories').selectAll().where('parent_id', '=', directory.id).orderBy('name').execute(),
    db.selectFrom('library_files').selectAll().where('directory_id', '=', directory.id).orderBy('name').execute(),
  ]);
  return {
    files: files.map(style.file),
    directory: directoryItem(style, directory),
    parentDirectory: parent ? directoryItem(style, parent) : {},
    directories: directories.map((row) => directoryItem(style, row)),
  };
}

export async function folderListing(db: Database, host: FileHostName, source: FileHostSource, at: string | undefined) {
  return directoryListing(db, await findDirectory(db, host, source, at), hostStyle(host, source));
}
