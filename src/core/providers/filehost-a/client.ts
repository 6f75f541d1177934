/**
 * filehostA: a Google-Drive-like file host, over the Drive API v3 (about, files.list,
 * changes.list, files.get with alt=media). Read-only scope; offline access so a refresh token
 * is granted, and prompt=consent because Drive sends one only on a consented grant.
 */
import type { ProviderConfig } from '../../../toolkit/config.ts';
import { ProviderError } from '../errors.ts';
import { providerFetch } from '../http.ts';
import type { FileHostClient } from '../types.ts';
import { fetchChanges, treeChanges } from './changes.ts';
import { DriveApi, PROVIDER, listSubtree, resolveFolder } from './drive.ts';

interface About {
  user?: { displayName?: string; emailAddress?: string; permissionId?: string };
}

export function createFileHostAClient(config: ProviderConfig): FileHostClient {
  return {
    name: PROVIDER,
    kind: 'filehost',
    oauth: {
      scopes: ['https://www.googleapis.com/auth/drive.readonly'],
      pkce: true,
      authorizeParams: { access_type: 'offline', prompt: 'consent' },
    },

    async account(accessToken) {
      const { user } = await new DriveApi(config, accessToken).json<About>('/about', { fields: 'user(displayName,emailAddress,permissionId)' });
      if (!user?.permissionId) throw new ProviderError('Unavailable', PROVIDER, `${PROVIDER} did not say whose account this is`);
      return { id: user.permissionId, name: user.emailAddress || user.displayName || user.permissionId };
    },

    async listTree(accessToken, rootPath) {
      const api = new DriveApi(config, accessToken);
      const rootId = await resolveFolder(api, rootPath);
      // The cursor comes first: a change made while listing is then seen again, never lost.
      const { startPageToken } = await api.json<{ startPageToken: string }>('/changes/startPageToken', {});
      return { rootId, entries: await listSubtree(api, rootId, ''), cursor: startPageToken };
    },

    async changes(accessToken, rootPath, cursor, lookup) {
      const api = new DriveApi(config, accessToken);
      const batch = await fetchChanges(api, cursor);
      if (batch === 'reset') return 'reset';
      // Changes name parents by id, so the root's id is needed: it is resolved again (one
      // files.list per path segment), as the interface carries no id, and a mirrored folder
      // that is gone is then FolderNotFound here too.
      const rootId = await resolveFolder(api, rootPath);
      return { changes: await treeChanges(api, rootId, batch.changes, lookup), cursor: batch.cursor };
    },

    async download(accessToken, file, _rootPath, range) {
      const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
      if (range !== undefined) headers.range = range;
      const url = `${config.contentUrl}/files/${encodeURIComponent(file.id)}?alt=media`;
      const response = await providerFetch(PROVIDER, url, { headers }, [404, 416]);
      if (response.status !== 404) return response;
      await response.body?.cancel();
      const name = file.path.split('/').pop() || file.id;
      throw new ProviderError('FolderNotFound', PROVIDER, `${name} is no longer at ${PROVIDER}`);
    },
  };
}
