import { sql } from 'kysely';
import { inTransaction, type Database } from '../../toolkit/db/index.ts';
import { libraryNotFound } from './errors.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { insertIntoQueue } from './queue.ts';
import { visibleSource } from './views.ts';

/** What addDirectoryToQueue takes. */
export interface DirectoryRequest {
  /** A library_directories id, or a path relative to a source root ('/' before it optional, '' or '/' for the root). */
  directory: string;
  /** Where in the queue the songs go; the end when absent. */
  position?: number | undefined;
  shuffle?: boolean | undefined;
  /** Include the subdirectories' songs too (the default); false takes only the directory's own files. */
  recurse?: boolean | undefined;
}

type Reader = Pick<Database, 'selectFrom'>;

/**
 * The directory, among the sources the user sees. A path may exist in several sources; the
 * server-wide one is taken before the user's own, as for a song's playable file.
 */
async function findDirectory(db: Reader, userId: string, directory: string) {
  const path = directory.replace(/^\/+|\/+$/g, '');
  const query = db
    .selectFrom('library_directories as d')
    .innerJoin('library_sources', 'library_sources.id', 'd.source_id')
    .select(['d.id', 'd.source_id', 'd.path'])
    .where((eb) => visibleSource(eb, userId));
  const row = isUuid(directory)
    ? await query.where('d.id', '=', directory.toLowerCase()).executeTakeFirst()
    : await query.where('d.path', '=', path).orderBy(sql`library_sources.user_id is not null`).orderBy('d.source_id').limit(1).executeTakeFirst();
  if (!row) throw libraryNotFound(`no directory ${directory}`);
  return row;
}

/** Escapes LIKE's wildcards and escape character so a path matches only itself. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The directory's matched audio files' songs, in path order. */
async function directorySongs(db: Reader, directory: { id: string; source_id: number; path: string }, recurse: boolean): Promise<string[]> {
  let query = db.selectFrom('library_files').select('track_id').where('track_id', 'is not', null).where('source_id', '=', directory.source_id);
  if (!recurse) query = query.where('directory_id', '=', directory.id);
  else if (directory.path !== '') query = query.where('path', 'like', `${literalLike(directory.path)}/%`);
  const rows = await query.orderBy('path').execute();
  return rows.map((row) => row.track_id!);
}

/** Fisher–Yates: every order equally likely. */
function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/**
 * Puts a directory's songs into the user's queue; answers the song ids added and where they went.
 * An unknown directory, or one of a source the user does not see, is NotFound and the queue is
 * left as it was.
 */
export async function addDirectoryToQueue(
  db: Database,
  userId: string,
  request: DirectoryRequest,
  client: string,
): Promise<{ songIds: string[]; position: number }> {
  return inTransaction(db, async (tx) => {
    const directory = await findDirectory(tx, userId, request.directory);
    const songs = await directorySongs(tx, directory, request.recurse ?? true);
    const songIds = request.shuffle ? shuffled(songs) : songs;
    const position = await insertIntoQueue(tx, userId, songIds, request.position, client);
    return { songIds, position };
  });
}
