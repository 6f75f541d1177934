/**
 * A file host folder as spec 2.6 shows it, read from the mirror in the database (fast, and
 * unaffected by the host being down). Every field is a string, '' where there is no value, except
 * filehostB's clientModified / serverModified (date-times). Paths shown are the host's own
 * (the mirrored folder's path joined with the path below it), as `at` takes them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { directoryListing, FileA, fileItem, listing, type Directory, type ListingStyle } from '../library/directory-listing.ts';
import { libraryNotFound } from '../library/errors.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { IGNORES_CASE, type FileHostName } from './hosts.ts';
import type { FileHostSource } from './source.ts';

const Text = Type.String();
const FileB = Type.Object({
  ...FileA.properties,
  pathLower: Text,
  pathDisplay: Text,
  clientModified: Type.String({ format: 'date-time' }),
  serverModified: Type.String({ format: 'date-time' }),
});
export const LISTINGS = { filehostA: listing(FileA), filehostB: listing(FileB) } as const;

/** The host's path of a path below the mirrored folder. */
const hostPath = (root: string, path: string) => (path === '' ? root : `${root === '/' ? '' : root}/${path}`);

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
  if (at === undefined || at === '')
    throw libraryNotFound(`${source.root} is not mirrored yet: a sync runs after connecting, or start one with app.svc.${host}.sync`);
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
  return directoryListing(db, await findDirectory(db, host, source, at), hostStyle(host, source));
}
