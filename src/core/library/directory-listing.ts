/**
 * A directory of the library's mirror (library_directories, library_files) in spec 2.6's listing
 * shape, shared by the file hosts' folders (filehost/views.ts) and the server's music folder
 * (local-directory.ts): the library owns the mirror, so its listing lives here, and the file hosts
 * build on it. Every field is a string, '' where there is no value.
 */
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { Database, LibraryDirectoriesTable, LibraryFilesTable } from '../../toolkit/db/index.ts';

const Text = Type.String();

export const DirectoryItem = Type.Object({ id: Text, name: Text, fileId: Text, path: Text, parentId: Text, createdAt: Text, updatedAt: Text });
export const FileA = Type.Object({ id: Text, name: Text, fileId: Text, directoryId: Text, trackId: Text, createdAt: Text, updatedAt: Text });
export const listing = <F extends TObject>(file: F) =>
  Type.Object({
    files: Type.Array(file),
    directory: Type.Union([DirectoryItem, Type.Object({})], { description: 'the folder listed' }),
    parentDirectory: Type.Union([DirectoryItem, Type.Object({})], { description: 'its parent; {} for the root (the mirrored folder, or the music folder)' }),
    directories: Type.Array(DirectoryItem),
  });

export type Directory = Selectable<LibraryDirectoriesTable>;
type File = Selectable<LibraryFilesTable>;

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
