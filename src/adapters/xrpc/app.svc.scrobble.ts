/** The `app.svc.scrobble` group: recording, reading and correcting plays, and importing a history file in batches. */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { invalidRequest } from '../../toolkit/errors.ts';
import { DateTime, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { ISRC, MBID, SPOTIFY_ID } from '../../core/catalog/track-metadata.ts';
import { importStatus } from '../../core/scrobbling/imports/batch.ts';
import { Fingerprint, ImportBatch, ImportBatchResult, ImportStatus, MAX_IMPORT_BATCH } from '../../core/scrobbling/imports/schemas.ts';
import { storeImportBatch } from '../../core/scrobbling/imports/store-batch.ts';
import { MAX_DURATION_MS, MAX_GENRE_LENGTH, MAX_INT4, MAX_TAG_LENGTH, MAX_TAGS } from '../../core/catalog/field-rules.ts';
import { recordPlay } from '../../core/scrobbling/record-play.ts';
import { correctScrobble, deleteScrobble as deleteOwnScrobble, findScrobble } from '../../core/scrobbling/scrobble-by-id.ts';
import { NameText as Text, Scrobble } from '../../core/scrobbling/schemas.ts';

// The declared limits are listen-rules' (so the OpenAPI document tells clients); recordPlay
// then checks what a schema cannot say (lone surrogates, the listen time).
const Positive = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_INT4, description });
const PlayedMs = Type.Integer({ minimum: 0, maximum: MAX_DURATION_MS, description: 'how long the play actually lasted, in milliseconds, when known' });

const createScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.createScrobble',
  summary: 'Record a play for the caller; matched against the catalog like every other submission',
  auth: 'required',
  input: Type.Object({
    title: Text('track title'),
    artist: Text('track artist credit'),
    album: Type.Optional(Text('album title')),
    albumArtist: Type.Optional(Text('album artist')),
    duration: Type.Optional(Positive('milliseconds')),
    playedMs: Type.Optional(PlayedMs),
    trackNumber: Type.Optional(Positive('position on the disc')),
    discNumber: Type.Optional(Positive('disc number')),
    mbid: Type.Optional(Type.String({ pattern: MBID.source, description: 'MusicBrainz recording id' })),
    isrc: Type.Optional(Type.String({ pattern: ISRC.source })),
    spotifyId: Type.Optional(Type.String({ pattern: SPOTIFY_ID.source })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH }), { maxItems: MAX_TAGS })),
    genre: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_GENRE_LENGTH })),
    timestamp: Type.Optional(DateTime({ description: 'when the play happened; default now' })),
  }),
  output: Type.Object({
    status: Type.Union([Type.Literal('stored'), Type.Literal('duplicate'), Type.Literal('ignored')]),
    id: Type.Optional(Type.String()),
    uri: Type.Optional(Type.String()),
    trackId: Type.Optional(Type.String()),
    trackUri: Type.Optional(Type.String()),
    createdAt: Type.Optional(DateTime()),
    reason: Type.Optional(Type.String({ description: 'why an ignored listen was not stored' })),
  }),
  async handler({ input, viewer, ctx }) {
    const listenedAt = input.timestamp ? new Date(input.timestamp) : new Date();
    const outcome = await recordPlay(ctx, viewer.userId, { ...input, durationMs: input.duration, listenedAt, submitted: input });
    if (!outcome || outcome.status === 'ignored') return { status: 'ignored' as const, reason: outcome?.reason };
    return {
      status: outcome.status,
      id: outcome.scrobbleId,
      uri: `earshot:scrobble:${outcome.scrobbleId}`,
      trackId: outcome.trackId,
      trackUri: `earshot:song:${outcome.trackId}`,
      createdAt: isoDateTime(listenedAt),
    };
  },
});

/** How a call names one scrobble: by uri or id (getScrobble, deleteScrobble, updateScrobble). */
const ScrobbleRef = {
  uri: Type.Optional(Type.String({ maxLength: 200, description: 'earshot:scrobble:<id>' })),
  id: Type.Optional(Uuid()),
};

const SCROBBLE_URI = /^earshot:scrobble:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The scrobble id named by `uri` (earshot:scrobble:<id>) or `id`; 400 when neither or they differ. */
function scrobbleIdFrom(params: { uri?: string | undefined; id?: string | undefined }): string {
  const fromUri = params.uri === undefined ? undefined : SCROBBLE_URI.exec(params.uri)?.[1];
  if (params.uri !== undefined && fromUri === undefined) throw invalidRequest('uri must be earshot:scrobble:<id>');
  const id = fromUri ?? params.id;
  if (id === undefined) throw invalidRequest('give the scrobble uri or id');
  if (params.id !== undefined && id.toLowerCase() !== params.id.toLowerCase()) throw invalidRequest('uri and id name different scrobbles');
  return id;
}

const getScrobble = defineQuery({
  nsid: 'app.svc.scrobble.getScrobble',
  summary: 'One scrobble, by uri or id',
  auth: 'optional',
  params: Type.Object(ScrobbleRef),
  output: Type.Object({ scrobble: Scrobble }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return { scrobble: await findScrobble(ctx.db, viewer?.userId ?? null, scrobbleIdFrom(params)) };
  },
});

const deleteScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.deleteScrobble',
  summary: "Delete one of the caller's plays, by uri or id; counts, charts, feeds and Wrapped drop it at once",
  auth: 'required',
  input: Type.Object(ScrobbleRef),
  output: Type.Object({ success: Type.Literal(true) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ input, viewer, ctx }) {
    await deleteOwnScrobble(ctx.db, viewer.userId, scrobbleIdFrom(input));
    return { success: true as const };
  },
});

const updateScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.updateScrobble',
  summary: "Correct one of the caller's plays: its time, or its song (by id, or by corrected names through the matcher); or say how long it lasted",
  auth: 'required',
  input: Type.Object({
    ...ScrobbleRef,
    listenedAt: Type.Optional(DateTime({ description: 'when the play happened; the same limits as a new listen' })),
    playedMs: Type.Optional(PlayedMs),
    trackId: Type.Optional(Uuid({ description: 'an existing catalog song to re-point the play to' })),
    artist: Type.Optional(Text('corrected artist; the rest of the names are kept from the current song')),
    title: Type.Optional(Text('corrected title')),
    album: Type.Optional(Text('corrected album')),
  }),
  output: Type.Object({ scrobble: Scrobble }),
  errors: ['InvalidRequest', 'NotFound', 'DuplicateScrobble'],
  async handler({ input, viewer, ctx }) {
    const listenedAt = input.listenedAt === undefined ? undefined : new Date(input.listenedAt);
    return { scrobble: await correctScrobble(ctx, viewer.userId, scrobbleIdFrom(input), { ...input, listenedAt }) };
  },
});

/** Room for a full batch at ListenBrainz's limit of 10,240 bytes per listen; the XRPC default would cap batches at a few dozen rich listens. */
const IMPORT_BODY_LIMIT = MAX_IMPORT_BATCH * 10_240;

const importListens = defineProcedure({
  nsid: 'app.svc.scrobble.importListens',
  summary: "Store one batch of an imported history file and advance the file's checkpoint atomically",
  auth: 'required',
  input: ImportBatch,
  output: ImportBatchResult,
  errors: ['CheckpointMismatch', 'ImportComplete'],
  bodyLimit: IMPORT_BODY_LIMIT,
  handler: ({ input, viewer, ctx }) => storeImportBatch(ctx, viewer.userId, input),
});

const getImport = defineQuery({
  nsid: 'app.svc.scrobble.getImport',
  summary: "How far the caller's import of a file (by fingerprint) got; a re-run resumes from recordsConsumed",
  auth: 'required',
  params: Type.Object({ fingerprint: Fingerprint }),
  output: ImportStatus,
  handler: ({ params, viewer, ctx }) => importStatus(ctx.db, viewer.userId, params.fingerprint),
});

export const scrobbleOperations = [createScrobble, deleteScrobble, updateScrobble, getScrobble, importListens, getImport];
