/**
 * filehostB: a Dropbox-like host, over Dropbox API v2. RPC endpoints (apiUrl) take a JSON body;
 * the download endpoint (contentUrl) takes its argument in the Dropbox-API-Arg header. An
 * endpoint's own errors are HTTP 409 with an `error_summary` such as 'path/not_found/..'.
 * Paths are case-insensitive; entries carry them in display case.
 */
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { ProviderError } from '../errors.ts';
import { providerFetch, providerJson } from '../http.ts';
import type { FileHostClient, RemoteChange, RemoteEntry } from '../types.ts';
import { headerJson } from './header-json.ts';
import type { ApiError, FullAccount, ListFolderResult, Metadata } from './wire.ts';

const PROVIDER = 'filehostB';

/** Dropbox's form of a folder path: '/Music' (no trailing '/'), and '' (not '/') for the root. */
function dropboxPath(rootPath: string): string {
  return rootPath.replace(/\/+$/, '');
}

/** What a 409 is about: its error_summary ('' when unreadable). */
async function errorSummary(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as Partial<ApiError> | null;
  return body?.error_summary ?? '';
}

const refused = (summary: string) => new ProviderError('Refused', PROVIDER, `${PROVIDER} refused the request: ${summary}`);
const folderNotFound = (rootPath: string) => new ProviderError('FolderNotFound', PROVIDER, `There is no folder ${rootPath} at ${PROVIDER}`);

/** Relative to the mirrored folder, by segments: lower-casing may change a display path's length. */
function relativePath(displayPath: string, root: string): string {
  return displayPath.split('/').slice(root.split('/').length).join('/');
}

/** A listed entry as Earshot sees it; null for the mirrored folder itself. */
function toChange(entry: Metadata, root: string): RemoteChange | null {
  const path = relativePath(entry.path_display, root);
  if (entry['.tag'] === 'deleted') return { kind: 'removed', path };
  if (path === '') return null;
  if (entry['.tag'] === 'folder') return { kind: 'folder', id: entry.id, path, name: entry.name };
  const serverModified = new Date(entry.server_modified);
  return {
    kind: 'file',
    id: entry.id,
    path,
    name: entry.name,
    size: entry.size,
    modifiedAt: serverModified,
    clientModified: new Date(entry.client_modified),
    serverModified,
  };
}

const depth = (entry: RemoteEntry) => entry.path.split('/').length;

export function createFileHostBClient(config: ProviderConfig): FileHostClient {
  const authorization = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

  function rpc(accessToken: string, endpoint: string, argument: unknown, expected: readonly number[] = []): Promise<Response> {
    const init = { method: 'POST', headers: { ...authorization(accessToken), 'content-type': 'application/json' }, body: JSON.stringify(argument) };
    return providerFetch(PROVIDER, `${config.apiUrl}/${endpoint}`, init, expected);
  }

  /** A list_folder page, or 'reset' when Dropbox no longer honours the cursor. */
  async function listPage(accessToken: string, endpoint: string, argument: unknown, rootPath: string): Promise<ListFolderResult | 'reset'> {
    const response = await rpc(accessToken, endpoint, argument, [409]);
    if (response.ok) return providerJson<ListFolderResult>(PROVIDER, response);
    const summary = await errorSummary(response);
    if (summary.startsWith('reset')) return 'reset';
    if (summary.startsWith('path/not_found') || summary.startsWith('path/not_folder')) throw folderNotFound(rootPath);
    throw refused(summary);
  }

  /** Every entry from `first` on, following the cursor while Dropbox has more. */
  async function drain(accessToken: string, first: ListFolderResult | 'reset', rootPath: string): Promise<{ entries: Metadata[]; cursor: string } | 'reset'> {
    let page = first;
    const entries: Metadata[] = [];
    while (page !== 'reset') {
      entries.push(...page.entries);
      if (!page.has_more) return { entries, cursor: page.cursor };
      page = await listPage(accessToken, 'files/list_folder/continue', { cursor: page.cursor }, rootPath);
    }
    return 'reset';
  }

  async function currentAccount(accessToken: string): Promise<FullAccount> {
    // No arguments: Dropbox wants no body and no Content-Type.
    const response = await providerFetch(PROVIDER, `${config.apiUrl}/users/get_current_account`, { method: 'POST', headers: authorization(accessToken) });
    return providerJson<FullAccount>(PROVIDER, response);
  }

  /** The mirrored folder's id. Dropbox has no metadata for its root: that is the home namespace ('ns:<id>'). */
  async function folderId(accessToken: string, root: string, rootPath: string): Promise<string> {
    if (root === '') return `ns:${(await currentAccount(accessToken)).root_info.home_namespace_id}`;
    const response = await rpc(accessToken, 'files/get_metadata', { path: root }, [409]);
    if (response.status === 409) {
      const summary = await errorSummary(response);
      throw summary.startsWith('path/not_found') ? folderNotFound(rootPath) : refused(summary);
    }
    const entry = await providerJson<Metadata>(PROVIDER, response);
    if (entry['.tag'] !== 'folder') throw folderNotFound(rootPath);
    return entry.id;
  }

  return {
    name: PROVIDER,
    kind: 'filehost',
    oauth: { scopes: ['files.metadata.read', 'files.content.read', 'account_info.read'], pkce: true, authorizeParams: { token_access_type: 'offline' } },

    async account(accessToken) {
      const account = await currentAccount(accessToken);
      return { id: account.account_id, name: account.email || account.name.display_name };
    },

    async listTree(accessToken, rootPath) {
      const root = dropboxPath(rootPath);
      const rootId = await folderId(accessToken, root, rootPath);
      const first = await listPage(accessToken, 'files/list_folder', { path: root, recursive: true, include_deleted: false }, rootPath);
      const listed = await drain(accessToken, first, rootPath);
      // A fresh cursor is not expected to reset; if it does, the sync tries again later.
      if (listed === 'reset') throw new ProviderError('Unavailable', PROVIDER, `${PROVIDER} reset the listing of ${rootPath} while it was read`);
      const entries = listed.entries.map((entry) => toChange(entry, root)).filter((entry): entry is RemoteEntry => entry !== null && entry.kind !== 'removed');
      // Dropbox does not promise parents first; a stable sort by depth keeps its order otherwise.
      return { rootId, entries: entries.sort((a, b) => depth(a) - depth(b)), cursor: listed.cursor };
    },

    // Dropbox reports a move as the old path deleted and the new one added, so `lookup` is not needed.
    async changes(accessToken, rootPath, cursor) {
      const root = dropboxPath(rootPath);
      // As if a page had just said there is more after `cursor`.
      const listed = await drain(accessToken, { entries: [], cursor, has_more: true }, rootPath);
      if (listed === 'reset') return 'reset';
      // Kept in Dropbox's order: a path deleted and added again must be applied in that order.
      const changes = listed.entries.map((entry) => toChange(entry, root)).filter((change) => change !== null);
      return { changes, cursor: listed.cursor };
    },

    async download(accessToken, file, _rootPath, range) {
      const headers: Record<string, string> = { ...authorization(accessToken), 'dropbox-api-arg': headerJson({ path: file.id }) };
      if (range !== undefined) headers.range = range;
      const response = await providerFetch(PROVIDER, `${config.contentUrl}/files/download`, { method: 'POST', headers }, [409, 416]);
      if (response.status !== 409) return response;
      const summary = await errorSummary(response);
      const gone = summary.startsWith('path/not_found') || summary.startsWith('path/not_file');
      throw gone ? new ProviderError('FolderNotFound', PROVIDER, `${file.path} is no longer at ${PROVIDER}`) : refused(summary);
    },
  };
}
