import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../toolkit/schemas.ts';

const Opt = Type.Optional;

/** Catalog fields shared by a Song (spec 2.4) and a Scrobble (spec 2.3). Absent values are omitted, never null. */
export const TrackFields = {
  title: Type.String(),
  artist: Type.String(),
  albumArtist: Opt(Type.String()),
  album: Opt(Type.String()),
  albumArt: Opt(Type.String()),
  artistUri: Opt(Type.String()),
  albumUri: Opt(Type.String()),
  duration: Opt(Type.Integer({ description: 'milliseconds' })),
  trackNumber: Opt(Type.Integer()),
  discNumber: Opt(Type.Integer()),
  sha256: Opt(Type.String()),
  mbid: Opt(Type.String()),
  mbId: Opt(Type.String({ description: 'alias of mbid' })),
  isrc: Opt(Type.String()),
  tags: Type.Array(Type.String()),
  streamingLinkA: Opt(Type.String()),
  videoLink: Opt(Type.String()),
  streamingLinkB: Opt(Type.String()),
  streamingLinkC: Opt(Type.String()),
  composer: Opt(Type.String()),
  genre: Opt(Type.String()),
  label: Opt(Type.String()),
  copyrightMessage: Opt(Type.String()),
  key: Opt(Type.String()),
  bpm: Opt(Type.Integer()),
  dbVersion: Type.Integer(),
  liked: Type.Boolean({ description: 'whether the caller likes it; false without auth' }),
  likesCount: Type.Integer({ minimum: 0 }),
  updatedAt: DateTime(),
};

/** A song of the catalog (spec 2.4), as returned by getSongs. */
export const Song = Type.Object({
  id: Type.String(),
  uri: Type.String(),
  ...TrackFields,
  playCount: Type.Integer({ minimum: 0 }),
  uniqueListeners: Type.Integer({ minimum: 0 }),
  lyrics: Opt(Type.String()),
  acoustidFingerprint: Opt(Type.String()),
  createdAt: DateTime(),
});
export type Song = Static<typeof Song>;

export const ArtistView = Type.Object({
  id: Type.String(),
  uri: Type.String(),
  name: Type.String(),
  picture: Opt(Type.String()),
  mbid: Opt(Type.String()),
  genres: Type.Array(Type.String()),
  playCount: Type.Integer({ minimum: 0 }),
  uniqueListeners: Type.Integer({ minimum: 0 }),
  createdAt: DateTime(),
});
export type ArtistView = Static<typeof ArtistView>;

export const AlbumView = Type.Object({
  id: Type.String(),
  uri: Type.String(),
  title: Type.String(),
  artist: Type.String(),
  artistUri: Opt(Type.String()),
  albumArt: Opt(Type.String()),
  mbid: Opt(Type.String()),
  releaseDate: Opt(Type.String()),
  year: Opt(Type.Integer()),
  genre: Opt(Type.String()),
  label: Opt(Type.String()),
  playCount: Type.Integer({ minimum: 0 }),
  uniqueListeners: Type.Integer({ minimum: 0 }),
  createdAt: DateTime(),
});
export type AlbumView = Static<typeof AlbumView>;
