/**
 * `app.svc.filehostA` and `app.svc.filehostB`: the caller's mirrored folder (getFiles, spec 4.6)
 * and syncing it on demand. The same two operations for each host; each group names its nsids.
 */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../http/operation.ts';
import type { FileHostName } from '../../../core/filehost/hosts.ts';
import { mirroredFolder, syncMirror } from '../../../core/filehost/mirror.ts';
import { LISTINGS } from '../../../core/filehost/views.ts';

const SyncReport = Type.Object({
  status: Type.Union([Type.Literal('scanned'), Type.Literal('already-scanning')], {
    description: 'already-scanning: a sync of this folder was running; this one did nothing',
  }),
  folder: Type.String(),
  startedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Integer(),
  added: Type.Integer(),
  updated: Type.Integer(),
  removed: Type.Integer(),
  unchanged: Type.Integer(),
  directories: Type.Integer(),
  skippedCount: Type.Integer(),
  skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
});

const PROVIDER_ERRORS = [
  'ProviderNotConfigured',
  'NotConnected',
  'ConnectionBroken',
  'NotFound',
  'ProviderRefused',
  'RateLimitExceeded',
  'ProviderUnavailable',
] as const;

export function getFilesOperation<N extends string>(nsid: N, host: FileHostName) {
  return defineQuery({
    nsid,
    summary: `A folder of the caller's ${host} mirror, from the database: its files, subfolders and parent`,
    auth: 'required',
    params: Type.Object({
      at: Type.Optional(
        Type.String({
          maxLength: 4096,
          description:
            "the folder: a path at the host (e.g. /Music/Rock) or the host's folder id; default the mirrored folder (/Music unless chosen otherwise)",
        }),
      ),
    }),
    output: LISTINGS[host],
    errors: ['InvalidRequest', 'ProviderNotConfigured', 'NotConnected', 'NotFound'],
    handler: ({ params, viewer, ctx }) => mirroredFolder(ctx, viewer.userId, host, params.at),
  });
}

export function syncOperation<N extends string>(nsid: N, host: FileHostName) {
  return defineProcedure({
    nsid,
    summary: `Sync the caller's ${host} mirror now (only the changes since the last sync) and answer what changed; with \`folder\`, mirror that folder instead`,
    auth: 'required',
    input: Type.Object({
      folder: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'a folder at the host to mirror from now on, e.g. /Music' })),
    }),
    output: SyncReport,
    errors: ['InvalidRequest', ...PROVIDER_ERRORS],
    handler: ({ input, viewer, ctx }) => syncMirror(ctx, viewer.userId, host, input.folder),
  });
}
