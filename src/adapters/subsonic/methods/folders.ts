import type { Database } from '../../../toolkit/db/index.ts';
import { libraryNotFound } from '../../../core/library/errors.ts';
import { songViews } from '../../../core/library/views.ts';
import { folderParam, uuidParam } from '../args.ts';
import { childDirectories, directoryTrackIds, groupByIndex, IGNORED_ARTICLES, visibleDirectory, visibleFolders } from '../folders.ts';
import { defineSubsonicMethod } from '../method.ts';

export const getMusicFolders = defineSubsonicMethod('getMusicFolders', async ({ ctx, viewer }) => {
  const folders = await visibleFolders(ctx.db, viewer.userId);
  return { musicFolders: { musicFolder: folders.map((folder) => ({ id: folder.id, name: folder.name })) } };
});

/** The folders' root directories: the tree getIndexes and getMusicDirectory walk from. */
async function rootDirectories(db: Database, userId: string, folderId: number | undefined) {
  const folders = (await visibleFolders(db, userId)).filter((folder) => folderId === undefined || folder.id === folderId);
  if (folderId !== undefined && folders.length === 0) throw libraryNotFound(`no music folder ${folderId}`);
  if (folders.length === 0) return { folders, roots: [] };
  const roots = await db
    .selectFrom('library_directories')
    .select('id')
    .where('parent_id', 'is', null)
    .where(
      'source_id',
      'in',
      folders.map((folder) => folder.id),
    )
    .execute();
  return { folders, roots: roots.map((root) => root.id) };
}

/** Top-level directories of the folders by first letter, and the songs lying in the roots themselves. */
export const getIndexes = defineSubsonicMethod('getIndexes', async ({ ctx, viewer, params }) => {
  const { folders, roots } = await rootDirectories(ctx.db, viewer.userId, folderParam(params));
  const directories = await childDirectories(ctx.db, roots);
  const changed = [...folders.map((folder) => folder.last_scan_at ?? folder.updated_at), ...directories.map((directory) => directory.updated_at)];
  return {
    indexes: {
      ignoredArticles: IGNORED_ARTICLES.join(' '),
      lastModified: Math.max(0, ...changed.map((date) => date.getTime())),
      index: groupByIndex(directories).map((group) => ({
        name: group.name,
        artist: group.items.map((directory) => ({ id: directory.id, name: directory.name })),
      })),
      child: await songViews(ctx.db, viewer.userId, await directoryTrackIds(ctx.db, roots)),
    },
  };
});

export const getMusicDirectory = defineSubsonicMethod('getMusicDirectory', async ({ ctx, viewer, params }) => {
  const id = uuidParam(params);
  const directory = await visibleDirectory(ctx.db, viewer.userId, id);
  if (!directory) throw libraryNotFound(`no directory ${id}`);
  const subdirectories = await childDirectories(ctx.db, [id]);
  const songs = await songViews(ctx.db, viewer.userId, await directoryTrackIds(ctx.db, [id]));
  return {
    directory: {
      id: directory.id,
      parent: directory.parent_id ?? undefined,
      name: directory.parent_id === null ? directory.source_name : directory.name,
      child: [
        ...subdirectories.map((sub) => ({ id: sub.id, parent: id, isDir: true, title: sub.name, name: sub.name })),
        // The song's own `parent` is its playable file's directory; here it is listed under this one.
        ...songs.map((song) => ({ ...song, parent: id })),
      ],
    },
  };
});
