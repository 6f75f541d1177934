import { Type } from '@sinclair/typebox';
import { defineProcedure } from '../../adapters/http/operation.ts';
import { invalidRequest } from '../../toolkit/errors.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import { ISRC, MBID, SPOTIFY_ID } from '../catalog/track-metadata.ts';
import { ingestListens, type Listen } from './ingest.ts';
import { listenProblem, MAX_GENRE_LENGTH, MAX_INT4, MAX_TAG_LENGTH, MAX_TAGS } from './listen-rules.ts';
import { NameText as Text } from './schemas.ts';
import { correctionOperations } from './correction-operations.ts';
import { feedOperations } from './feed/operations.ts';
import { importOperations } from './imports/index.ts';

// The declared limits are listen-rules' (so the OpenAPI document tells clients); listenProblem
// then checks what a schema cannot say (lone surrogates, the listen time).
const Positive = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_INT4, description });

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
    const listen: Listen = { ...input, durationMs: input.duration, listenedAt, submitted: input };
    // A listen no path may store is the caller's mistake: 400, not a quiet 'ignored'.
    const problem = listenProblem(listen);
    if (problem) throw invalidRequest(problem);
    const [outcome] = await ingestListens(ctx, viewer.userId, [listen], 'api');
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

export const scrobbleOperations = [createScrobble, ...correctionOperations, ...feedOperations, ...importOperations];
