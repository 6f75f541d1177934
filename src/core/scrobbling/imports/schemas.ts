import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../../toolkit/schemas.ts';
import { ISRC, SPOTIFY_ID } from '../../catalog/track-metadata.ts';

export const IMPORT_FORMATS = ['listenbrainz', 'lastfm', 'spotify', 'scrobbler-log', 'maloja'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Listens per import batch: one transaction each; importListens sizes its body limit from it. */
export const MAX_IMPORT_BATCH = 1000;

export const Fingerprint = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file, lowercase hex' });

/**
 * One listen as an import client sends it. Only types and formats are declared
 * here; lengths, ranges and the size of `submitted` are the listen rules'
 * (listen-rules.ts), so a listen that breaks them is ignored with their reason.
 */
export const ImportListen = Type.Object({
  artist: Type.String(),
  title: Type.String(),
  album: Type.Optional(Type.String()),
  albumArtist: Type.Optional(Type.String()),
  durationMs: Type.Optional(Type.Integer()),
  playedMs: Type.Optional(Type.Integer({ description: 'how long the play lasted, where the file says (Spotify ms_played)' })),
  trackNumber: Type.Optional(Type.Integer()),
  discNumber: Type.Optional(Type.Integer()),
  mbid: Type.Optional(Type.String({ format: 'uuid' })),
  artistMbid: Type.Optional(Type.String({ format: 'uuid' })),
  albumMbid: Type.Optional(Type.String({ format: 'uuid' })),
  isrc: Type.Optional(Type.String({ pattern: ISRC.source })),
  spotifyId: Type.Optional(Type.String({ pattern: SPOTIFY_ID.source })),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  listenedAt: DateTime({ description: 'when the listen started' }),
  submitted: Type.Record(Type.String(), Type.Unknown(), { description: 'the record as found in the file' }),
});
export type ImportListen = Static<typeof ImportListen>;

export const ImportBatch = Type.Object({
  fingerprint: Fingerprint,
  format: Type.Union(IMPORT_FORMATS.map((format) => Type.Literal(format))),
  from: Type.Integer({ minimum: 0, description: 'records of the file consumed before this batch; must equal the checkpoint' }),
  records: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: 'records of the file this batch covers; those without a listen were ignored by the client',
  }),
  // Each listen is checked against ImportListen by the handler, not here: one odd listen is ignored with its reason instead of failing the batch.
  listens: Type.Array(Type.Unknown({ description: 'ImportListen objects; one that does not fit is counted as ignored, with the reason' }), {
    maxItems: MAX_IMPORT_BATCH,
  }),
  complete: Type.Boolean({ description: 'the file ends with this batch' }),
  dryRun: Type.Optional(
    Type.Boolean({
      description: 'match and count the listens as the import would, writing nothing (no scrobbles, catalog entries or checkpoint; `from` is not checked)',
    }),
  ),
});
export type ImportBatch = Static<typeof ImportBatch>;

export const ImportStatus = Type.Object({
  fingerprint: Fingerprint,
  format: Type.Optional(Type.String()),
  recordsConsumed: Type.Integer({ description: 'records of the file already imported; a re-run resumes after them' }),
  stored: Type.Integer(),
  duplicate: Type.Integer(),
  ignored: Type.Integer(),
  complete: Type.Boolean(),
  completedAt: Type.Optional(DateTime()),
});
export type ImportStatus = Static<typeof ImportStatus>;

export const ImportBatchResult = Type.Object({
  stored: Type.Integer(),
  duplicate: Type.Integer(),
  ignored: Type.Integer(),
  newSongs: Type.Optional(Type.Integer({ description: 'dry run: of the listens counted as stored, those of songs the catalog does not have yet' })),
  claims: Type.Optional(
    Type.Array(Type.Object({ key: Type.String({ description: 'the play (song and instant), hashed' }), newSong: Type.Boolean() }), {
      description:
        'dry run: a key per listen counted as stored, so a client previewing a file batch by batch counts a play repeated in a later batch (or file) as a duplicate',
    }),
  ),
  ignoredListens: Type.Array(Type.Object({ index: Type.Integer({ description: 'position in the batch listens' }), reason: Type.String() }), {
    description: 'the first few listens the server ignored',
  }),
  status: ImportStatus,
});
export type ImportBatchResult = Static<typeof ImportBatchResult>;
