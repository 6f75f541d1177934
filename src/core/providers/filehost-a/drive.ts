/**
 * The parts of the Drive API v3 the filehostA client uses: authenticated GETs, files.list with
 * paging, and turning Drive's file resources into RemoteEntry values. Drive addresses everything
 * by id, so a provider path ('/Music/Rock') is resolved one folder name at a time.
 */
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { RemoteEntry } from '../types.ts';

export const PROVIDER = 'filehostA' as const;
export const FOLDER_MIME = 'application/vnd.google-apps.folder';
/** Docs, Sheets, shortcuts...: Drive-native types with no bytes of their own to download. */
const GOOGLE_APPS_PREFIX = 'application/vnd.google-apps.';
export const FILE_FIELDS = 'id,name,mimeType,size,modifiedTime,parents';
/** Drive's largest files.list and changes.list page. */
export const PAGE_SIZE = '1000';

/** A file resource as the client asks for it (Drive sends int64 sizes as strings). */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  size?: string;
  modifiedTime?: string;
  parents?: string[];
  trashed?: boolean;
}

export class DriveApi {
  constructor(
    private readonly config: ProviderConfig,
    private readonly accessToken: string,
  ) {}

  /** GET {apiUrl}{path}?params; statuses in `expected` come back instead of failing. */
  async get(path: string, params: Record<string, string>, expected: readonly number[] = []): Promise<Response> {
    const url = new URL(`${this.config.apiUrl}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return providerFetch(PROVIDER, url.toString(), { headers: { authorization: `Bearer ${this.accessToken}`, accept: 'application/json' } }, expected);
  }

  async json<T>(path: string, params: Record<string, string>): Promise<T> {
    return providerJson<T>(PROVIDER, await this.get(path, params));
  }

  /** Every file matching a files.list query, across pages. */
  async list(q: string): Promise<DriveFile[]> {
    const files: DriveFile[] = [];
    let pageToken: string | undefined;
    do {
      const params: Record<string, string> = { q, fields: `nextPageToken,files(${FILE_FIELDS})`, pageSize: PAGE_SIZE, spaces: 'drive' };
      if (pageToken !== undefined) params.pageToken = pageToken;
      const page = await this.json<{ files?: DriveFile[]; nextPageToken?: string }>('/files', params);
      files.push(...(page.files ?? []));
      pageToken = page.nextPageToken;
    } while (pageToken);
    return files;
  }
}

/** A string literal of Drive's query language: quotes and backslashes are backslash-escaped. */
export function queryLiteral(value: string): string {
  return `'${value.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

/**
 * A Drive name as one path segment. Drive allows '/' in names; it would split the segment, so it
 * becomes U+2215 (which looks the same). Only the mirror's path changes: downloads go by id.
 */
export function joinPath(parent: string, name: string): string {
  const segment = name.replaceAll('/', '\u2215');
  return parent === '' ? segment : `${parent}/${segment}`;
}

export function isUnder(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** The entry for a Drive file at `path`, or null for Drive-native documents (nothing to play). */
export function toEntry(file: DriveFile, path: string): RemoteEntry | null {
  if (file.mimeType === FOLDER_MIME) return { kind: 'folder', id: file.id, path, name: file.name };
  if (file.mimeType.startsWith(GOOGLE_APPS_PREFIX)) return null;
  const modified = file.modifiedTime === undefined ? undefined : new Date(file.modifiedTime);
  return {
    kind: 'file',
    id: file.id,
    path,
    name: file.name,
    size: file.size === undefined ? undefined : Number(file.size),
    modifiedAt: modified,
    serverModified: modified,
  };
}

/**
 * The id of the folder at a provider path. The root's real id (not the 'root' alias) is asked
 * for, because changes name parents by real id.
 */
export async function resolveFolder(api: DriveApi, rootPath: string): Promise<string> {
  const segments = rootPath.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return (await api.json<{ id: string }>('/files/root', { fields: 'id' })).id;
  let id = 'root';
  for (const segment of segments) {
    const [folder] = await api.list(`${queryLiteral(id)} in parents and name = ${queryLiteral(segment)} and mimeType = '${FOLDER_MIME}' and trashed = false`);
    if (!folder) throw new ProviderError('FolderNotFound', PROVIDER, `${rootPath} is not a folder at ${PROVIDER}`);
    id = folder.id;
  }
  return id;
}

/** Everything below a folder, breadth first (parents before children), with paths under `path`. */
export async function listSubtree(api: DriveApi, folderId: string, path: string): Promise<RemoteEntry[]> {
  const entries: RemoteEntry[] = [];
  const queue = [{ id: folderId, path }];
  for (let index = 0; index < queue.length; index++) {
    const folder = queue[index]!;
    for (const file of await api.list(`${queryLiteral(folder.id)} in parents and trashed = false`)) {
      const entry = toEntry(file, joinPath(folder.path, file.name));
      if (!entry) continue;
      entries.push(entry);
      if (entry.kind === 'folder') queue.push({ id: entry.id, path: entry.path });
    }
  }
  return entries;
}
