/** `GET /export`: the caller's data as a zip, streamed (archive.ts). */
import { defineRoute } from '../api/route.ts';
import { archiveName, exportArchive } from './archive.ts';

const exportData = defineRoute({
  method: 'GET',
  path: '/export',
  summary:
    'Download all your data as a zip: profile, likes, playlists, and every play as ListenBrainz JSON Lines per month (re-importable into Earshot or ListenBrainz); streamed',
  auth: 'account',
  success: { status: 200, schema: null, download: 'application/zip' },
  async handler({ viewer, ctx }) {
    const user = { id: viewer.userId, did: viewer.did, handle: viewer.handle };
    return { filename: archiveName(user.handle), body: await exportArchive(ctx.db, user) };
  },
});

export const exportRoutes = [exportData];
