/**
 * The caller's data as a zip, streamed (core/export/archive.ts), at two addresses: the XRPC query
 * `app.svc.actor.exportData` (an XRPC query may answer a non-JSON body, as atproto's
 * com.atproto.sync.getRepo answers a CAR file) and `GET /export`, the address the web app and
 * older CLIs download from. One declaration serves both.
 */
import { defineRoute } from '../http/route.ts';
import { archiveName, exportArchive } from '../../core/export/archive.ts';

const SUMMARY =
  'Download all your data as a zip: profile, likes, playlists, and every play as ListenBrainz JSON Lines per month (re-importable into Earshot or ListenBrainz); streamed';

function exportDownload<Path extends string>(path: Path, summary: string) {
  return defineRoute({
    method: 'GET',
    path,
    summary,
    auth: 'account',
    success: { status: 200, schema: null, download: 'application/zip' },
    async handler({ viewer, ctx }) {
      const user = { id: viewer.userId, did: viewer.did, handle: viewer.handle };
      return { filename: archiveName(user.handle), body: await exportArchive(ctx.db, user) };
    },
  });
}

export const exportRoutes = [
  exportDownload('/xrpc/app.svc.actor.exportData', SUMMARY),
  exportDownload('/export', `${SUMMARY}. The same download as app.svc.actor.exportData, at its older address`),
];
