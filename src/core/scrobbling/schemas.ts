import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../toolkit/schemas.ts';
import { TrackFields } from '../catalog/schemas.ts';
import { MAX_NAME_LENGTH } from '../catalog/field-rules.ts';

const Opt = Type.Optional;

/** An artist, title or album as a client sends it: not blank, within listen-rules' limit. */
export const NameText = (description: string) => Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: '\\S', description });

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
  editedAt: Opt(DateTime({ description: 'when the owner last corrected the time or song (updateScrobble); absent as submitted' })),
  playedMs: Opt(Type.Integer({ minimum: 0, description: 'how long the play actually lasted, in milliseconds, where the client said; absent: unknown' })),
});
export type Scrobble = Static<typeof Scrobble>;
