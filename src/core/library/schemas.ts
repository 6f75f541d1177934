import { Type, type TProperties } from '@sinclair/typebox';
import { DateTime } from '../../toolkit/schemas.ts';

/**
 * TypeBox declarations of the library's views (views.ts, playlists.ts, queue.ts) for the XRPC
 * operations: the same Subsonic shapes the /rest API answers with.
 */

const Opt = Type.Optional;
const Count = Type.Integer({ minimum: 0 });
const Seconds = (description = 'seconds') => Type.Integer({ minimum: 0, description });

export const SongView = Type.Object({
  id: Type.String({ description: 'catalog track id' }),
  parent: Opt(Type.String({ description: 'id of the directory holding the file' })),
  isDir: Type.Literal(false),
  title: Type.String(),
  album: Opt(Type.String()),
  artist: Type.String(),
  track: Opt(Type.Integer()),
  year: Opt(Type.Integer()),
  genre: Opt(Type.String()),
  coverArt: Opt(Type.String()),
  size: Opt(Count),
  contentType: Opt(Type.String()),
  suffix: Opt(Type.String()),
  duration: Opt(Seconds()),
  bitRate: Opt(Type.Integer()),
  path: Opt(Type.String()),
  playCount: Count,
  discNumber: Opt(Type.Integer()),
  created: DateTime(),
  albumId: Opt(Type.String()),
  artistId: Opt(Type.String()),
  type: Type.Literal('music'),
  isVideo: Type.Literal(false),
  starred: Opt(DateTime()),
  bpm: Opt(Type.Integer()),
  musicBrainzId: Opt(Type.String()),
  genres: Type.Array(Type.Object({ name: Type.String() })),
  displayArtist: Type.String(),
  displayAlbumArtist: Opt(Type.String()),
  displayComposer: Opt(Type.String()),
});

export const AlbumView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  artist: Type.String(),
  artistId: Opt(Type.String()),
  coverArt: Opt(Type.String()),
  songCount: Count,
  duration: Seconds(),
  playCount: Count,
  created: DateTime(),
  year: Opt(Type.Integer()),
  genre: Opt(Type.String()),
  starred: Opt(DateTime()),
  musicBrainzId: Opt(Type.String()),
});

export const ArtistView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  albumCount: Count,
  coverArt: Opt(Type.String()),
  starred: Opt(DateTime()),
  musicBrainzId: Opt(Type.String()),
  artistImageUrl: Opt(Type.String({ description: "OpenSubsonic's: the catalog's picture URL" })),
});

/** Library listings (browse.ts): the views above, plus what the catalog knows to show. */
export const LibraryArtist = Type.Object({
  ...ArtistView.properties,
  songCount: Type.Integer({ minimum: 0, description: 'songs with a file the caller can play' }),
  picture: Opt(Type.String({ description: "the catalog's picture URL" })),
});
export const LibraryAlbum = Type.Object({ ...AlbumView.properties, albumArt: Opt(Type.String({ description: "the catalog's album art URL" })) });
export const LibraryAlbumWithSongs = Type.Object({ ...LibraryAlbum.properties, song: Type.Array(SongView) });

const PlaylistFields = {
  id: Type.String(),
  name: Type.String(),
  comment: Opt(Type.String()),
  owner: Type.String({ description: "the owner's handle" }),
  public: Type.Boolean(),
  songCount: Count,
  duration: Seconds(),
  created: DateTime(),
  changed: DateTime(),
  coverArt: Opt(Type.String({ description: 'cover art id: the first song with a cover' })),
};

export const PlaylistView = Type.Object(PlaylistFields);
export const PlaylistWithSongs = Type.Object({ ...PlaylistFields, entry: Type.Array(SongView) });

const QueueFields = {
  songCount: Type.Integer({ minimum: 0, description: 'how many songs the queue holds' }),
  current: Opt(Type.String({ description: "the current song's id" })),
  currentIndex: Opt(Type.Integer({ minimum: 0, description: "the current song's index in the queue" })),
  position: Type.Integer({ minimum: 0, description: 'milliseconds into the current song' }),
  username: Type.String(),
  changed: DateTime(),
  changedBy: Type.String({ description: 'the client that last changed the queue' }),
};

/** Where the queue stands, without its songs: what a change of the queue answers. */
export const QueueSummary = Type.Object(QueueFields);

/** The queue with one page of its songs: entry[0] is the song at index `offset`. */
export const PlayQueuePage = Type.Object({
  ...QueueFields,
  offset: Type.Integer({ minimum: 0, description: "the queue index of entry's first song" }),
  entry: Type.Array(SongView),
});

export const Starred = Type.Object({ artist: Type.Array(ArtistView), album: Type.Array(AlbumView), song: Type.Array(SongView) });

/** The spec's library envelope (2.2) around a payload (library/envelope.ts builds it). */
export const LibraryEnvelope = <P extends TProperties>(payload: P) =>
  Type.Object({
    status: Type.Literal('ok'),
    version: Type.String({ description: 'the Subsonic API version served' }),
    type: Type.String({ description: 'the server software' }),
    serverVersion: Type.String(),
    openCompat: Type.Boolean({ description: 'OpenSubsonic extensions are served' }),
    ...payload,
  });

/** A JSON body field that takes one value or several. */
export const OneOrMore = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Array(schema, { maxItems: 10_000 })], { description }));

/** The values of a OneOrMore field, as a list. */
export const listOf = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
