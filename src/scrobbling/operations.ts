import { Type } from '@sinclair/typebox';
import { defineProcedure } from '../api/operation.ts';
import { DateTime, isoDateTime } from '../api/schemas.ts';
import { ingestListens } from './ingest.ts';
import { feedOperations } from './feed/operations.ts';
import { importOperations } from './imports/index.ts';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 1024, pattern: '\\S', description });
const Positive = (description: string) => Type.Integer({ minimum: 0, maximum: 2_147_483_647, description });

export const createScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.createScrobble',
  summary: 'Record a play for the caller; matched against the catalog like every other submission',
  auth: 'required',
  input: Type.Object({
    title: Text('track title'),
    artist: Text('track artist credit'),
    album: Type.Optional(Text('album title')),
    albumArtist: Type.Optional(Text('album artist')),
    duration: Type.Optional(Positive('milliseconds')),
    trackNumber: Type.Optional(Positive('position on the disc')),
    discNumber: Type.Optional(Positive('disc number')),
    mbid: Type.Optional(Type.String({ format: 'uuid', description: 'MusicBrainz recording id' })),
    isrc: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}[A-Za-z0-9]{3}\\d{7}$' })),
    spotifyId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{22}$' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    genre: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
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
    const [outcome] = await ingestListens(ctx, viewer.userId, [{ ...input, durationMs: input.duration, listenedAt, submitted: input }], 'api');
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

export const scrobbleOperations = [createScrobble, ...feedOperations, ...importOperations];
