/**
 * A file host folder as spec 2.6 shows it, read from the mirror in the database (fast, and
 * unaffected by the host being down). Every field is a string, '' where there is no value, except
 * filehostB's clientModified / serverModified (date-times). Paths shown are the host's own
 * (the mirrored folder's path joined with the path below it), as `at` takes them.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { isoDateTime } from '../api/schemas.ts';
import type { Database, LibraryDirectoriesTable, LibraryFilesTable } from '../db/index.ts';
import { libraryNotFound } from '../library/errors.ts';
import { isUuid } from '../library/known-ids.ts';
import { IGNORES_CASE, type FileHostName } from './hosts.ts';
import type { FileHostSource } from './source.ts';

const Text = Type.String();

export const DirectoryItem = Type.Object({ id: Text, name: Text, fileId: Text, path: Text, parentId: Text, createdAt: Text, updatedAt: Text });
const FileA = Type.Object({ id: Text, name: Text, fileId: Text, directoryId: Text, trackId: Text, createdAt: Text, updatedAt: Text });
const FileB = Type.Object({
  ...FileA.properties,
  pathLower: Text,
  pathDisplay: Text,
  clientModified: Type.String({ format: 'date-time' }),
  serverModified: Type.String({ format: 'date-time' }),
});
const listing = <F extends typeof FileA | typeof FileB>(file: F) =>
  Type.Object({
    files: Type.Array(file),
    directory: Type.Union([DirectoryItem, Type.Object({})], { description: 'the folder listed' }),
    parentDirectory: Type.Union([DirectoryItem, Type.Object({})], { description: 'its parent; {} for the mirrored folder itself' }),
    directories: Type.Array(DirectoryItem),
  });
export const LISTINGS = { filehostA: listing(FileA), filehostB: listing(FileB) } as const;

type Directory = Selectable<LibraryDirectoriesTable>;
type File = Selectable<LibraryFilesTable>;

/** The host's path of a path below the mirrored folder. */
const hostPath = (root: string, path: string) => (path === '' ? root : `${root === '/' ? '' : root}/${path}`);

function directoryItem(source: FileHostSource, row: Directory): Static<typeof DirectoryItem> {
  return {
    id: row.id,
    name: row.name,
    fileId: row.file_id ?? '',
    path: hostPath(source.root, row.path),
    parentId: row.parent_id ?? '',
    createdAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
  };
}

function fileView(host: FileHostName, source: FileHostSource, row: File): Static<typeof FileB> | Static<typeof FileA> {
  const common = {
    id: row.id,
    name: row.name,
    fileId: row.file_id ?? '',
    directoryId: row.directory_id,
    trackId: row.track_id ?? '',
    createdAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
  };
  if (host === 'filehostA') return common;
  const pathDisplay = hostPath(source.root, row.path);
  return {
    ...common,
    pathLower: pathDisplay.toLowerCase(),
    pathDisplay,
    clientModified: isoDateTime(row.client_modified ?? row.modified_at),
    serverModified: isoDateTime(row.server_modified ?? row.modified_at),
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

export async function folderListing(db: Database, host: FileHostName, source: FileHostSource, at: string | undefined) {
  const directory = await findDirectory(db, host, source, at);
  const [parent, directories, files] = await Promise.all([
    directory.parent_id === null ? undefined : db.selectFrom('library_directories').selectAll().where('id', '=', directory.parent_id).executeTakeFirst(),
    db.selectFrom('library_directories').selectAll().where('parent_id', '=', directory.id).orderBy('name').execute(),
    db.selectFrom('library_files').selectAll().where('directory_id', '=', directory.id).orderBy('name').execute(),
  ]);
  return {
    files: files.map((row) => fileView(host, source, row)),
    directory: directoryItem(source, directory),
    parentDirectory: parent ? directoryItem(source, parent) : {},
    directories: directories.map((row) => directoryItem(source, row)),
  };
}
