/**
 * The server's music folder (EARSHOT_MUSIC_DIR) browsed a directory at a time, from its last scan,
 * in the shape the file hosts' getFiles answer with (spec 2.6): one browser serves both. Paths are
 * relative to the music folder with a leading '/', as addDirectoryToQueue takes them.
 */
import type { Database } from '../../toolkit/db/index.ts';
import { directoryListing, fileItem, type Directory, type ListingStyle } from './directory-listing.ts';
import { libraryNotFound } from './errors.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { findLocalSource } from './scan/source.ts';

const LOCAL_STYLE: ListingStyle<ReturnType<typeof fileItem>> = { path: (relative) => `/${relative}`, file: fileItem };

/** The music folder's source: the server-wide local source rooted at it, once a scan has made it. */
async function musicFolderSource(db: Database, musicDir: string | undefined): Promise<number> {
  if (!musicDir) throw libraryNotFound('this server has no music folder: set EARSHOT_MUSIC_DIR and run `earshot library scan`');
  const source = await findLocalSource(db, musicDir);
  if (source === undefined) throw libraryNotFound(`the music folder ${musicDir} has not been scanned yet: run \`earshot library scan\``);
  return source;
}

/** The directory `at` names: absent or '/', the music folder itself; a directory id; else a path relative to the music folder. */
async function findDirectory(db: Database, sourceId: number, at: string | undefined): Promise<Directory> {
  const query = db.selectFrom('library_directories').selectAll().where('source_id', '=', sourceId);
  const row =
    at !== undefined && isUuid(at)
      ? await query.where('id', '=', at.toLowerCase()).executeTakeFirst()
      : await query.where('path', '=', (at ?? '').replace(/^\/+|\/+$/g, '')).executeTakeFirst();
  if (!row) throw libraryNotFound(`no directory ${at} in the music folder`);
  return row;
}

export async function localDirectory(db: Database, musicDir: string | undefined, at: string | undefined) {
  const directory = await findDirectory(db, await musicFolderSource(db, musicDir), at);
  return directoryListing(db, directory, LOCAL_STYLE);
}
