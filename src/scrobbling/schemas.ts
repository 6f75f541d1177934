import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../api/schemas.ts';
import { TrackFields } from '../catalog/schemas.ts';

const Opt = Type.Optional;

/** A scrobble (spec 2.3): one play by one user, joined with its song and user. */
export const Scrobble = Type.Object({
  id: Type.String(),
  uri: Type.String({ description: 'earshot:scrobble:<id>' }),
  trackId: Type.String(),
  trackUri: Type.String(),
  ...TrackFields,
  cover: Opt(Type.String({ description: 'same as albumArt' })),
  handle: Type.String(),
  did: Type.String(),
  avatar: Opt(Type.String()),
  user: Type.String({ description: 'the user handle' }),
  userDisplayName: Opt(Type.String()),
  userAvatar: Opt(Type.String()),
  createdAt: DateTime({ description: 'when the listen happened' }),
  date: DateTime({ description: 'same as createdAt' }),
});
export type Scrobble = Static<typeof Scrobble>;
