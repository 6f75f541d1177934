/**
 * The `app.svc.library` group, the spec's library service (4.3) the Subsonic API serves too:
 * stars, playlists, the now-playing song, and browsing the library (its artists, albums and an
 * album's songs: what has a file the caller can play) in the library envelope (2.2), failures
 * mapped to 400/401/403/404; and the server's music folder a directory at a time as the file
 * hosts' getFiles answer it (no envelope, so one browser reads both).
 */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { FileA, listing } from '../../core/library/directory-listing.ts';
import { libraryAlbum, libraryAlbums, libraryArtists } from '../../core/library/browse.ts';
import { localDirectory } from '../../core/library/local-directory.ts';
import { libraryNotFound } from '../../core/library/errors.ts';
import { setNowPlaying } from '../../core/library/now-playing.ts';
import { signStreamUrl, STREAM_URL_SECONDS } from '../../core/library/signed-stream.ts';
import { playableFile } from '../../core/library/views.ts';
import { asXrpc, inEnvelope, XRPC_CLIENT } from '../../core/library/operations-call.ts';
import { createPlaylist, deletePlaylist, getPlaylist, listPlaylists, updatePlaylist } from '../../core/library/playlists.ts';
import {
  LibraryAlbum,
  LibraryAlbumWithSongs,
  LibraryArtist,
  LibraryEnvelope,
  listOf,
  OneOrMore,
  PlaylistView,
  PlaylistWithSongs,
  Starred,
} from '../../core/library/schemas.ts';
import { star, starred, unstar } from '../../core/library/stars.ts';
import { isUuid } from '../../toolkit/uuid.ts';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const Empty = LibraryEnvelope({});

const StarInput = Type.Object({
  id: OneOrMore(Id('song id'), "songs (an album's or an artist's id is taken too, as Subsonic's folder-based clients send them)"),
  albumId: OneOrMore(Id('album id'), 'albums'),
  artistId: OneOrMore(Id('artist id'), 'artists'),
});

/** star and unstar: the same call, applying `change` to every song, album and artist named. */
function starOperation<N extends string>(nsid: N, summary: string, change: typeof star) {
  return defineProcedure({
    nsid,
    summary,
    auth: 'required',
    input: StarInput,
    output: Empty,
    errors: ['InvalidRequest', 'NotFound'],
    handler: ({ input, viewer, ctx }) =>
      inEnvelope(async () => {
        await change(ctx, viewer.userId, { id: listOf(input.id), album: listOf(input.albumId), artist: listOf(input.artistId) });
        return {};
      }),
  });
}

const starOp = starOperation(
  'app.svc.library.star',
  'Star songs (id), albums (albumId) and artists (artistId); a starred song is a liked one; at least one is required',
  star,
);
const unstarOp = starOperation(
  'app.svc.library.unstar',
  'Remove the stars of songs (id), albums (albumId) and artists (artistId): each one given removes that star; unstarring a song unlikes it',
  unstar,
);

const updateNowPlaying = defineProcedure({
  nsid: 'app.svc.library.updateNowPlaying',
  summary: "Set the caller's now-playing song",
  auth: 'required',
  input: Type.Object({ id: Id('song id') }),
  output: Empty,
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ input, viewer, ctx }) =>
    inEnvelope(async () => {
      await setNowPlaying(ctx, viewer.userId, input.id, XRPC_CLIENT);
      return {};
    }),
});

const getPlaylists = defineQuery({
  nsid: 'app.svc.library.getPlaylists',
  summary: "The caller's own playlists, by name",
  auth: 'required',
  output: LibraryEnvelope({ playlists: Type.Object({ playlist: Type.Array(PlaylistView) }) }),
  handler: ({ viewer, ctx }) => inEnvelope(async () => ({ playlists: { playlist: await listPlaylists(ctx.db, viewer.userId) } })),
});

const getPlaylistOp = defineQuery({
  nsid: 'app.svc.library.getPlaylist',
  summary: "One playlist with its songs: the caller's own or another user's public one",
  auth: 'required',
  params: Type.Object({ id: Id('playlist id') }),
  output: LibraryEnvelope({ playlist: PlaylistWithSongs }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, viewer, ctx }) => inEnvelope(async () => ({ playlist: await getPlaylist(ctx.db, viewer.userId, params.id) })),
});

const Name = Type.String({ minLength: 1, maxLength: 1024 });

const createPlaylistOp = defineProcedure({
  nsid: 'app.svc.library.createPlaylist',
  summary: 'Create a private playlist of the given songs, in order; answers it',
  auth: 'required',
  input: Type.Object({ name: Name, songId: OneOrMore(Id('song id'), 'the songs, in order') }),
  output: LibraryEnvelope({ playlist: PlaylistWithSongs }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ input, viewer, ctx }) =>
    inEnvelope(async () => {
      const id = await createPlaylist(ctx.db, viewer.userId, input.name, listOf(input.songId));
      return { playlist: await getPlaylist(ctx.db, viewer.userId, id) };
    }),
});

const updatePlaylistOp = defineProcedure({
  nsid: 'app.svc.library.updatePlaylist',
  summary:
    "Change the caller's playlist: name, comment, public, songs removed (songIndexToRemove: indexes before this change) then songs appended " +
    "(songIdToAdd, in order). Another user's playlist is never changed: 403 when it is public, 404 when not. atprotoError would report a " +
    'failed publish after the change was applied; Earshot publishes nowhere, so it is never present',
  auth: 'required',
  input: Type.Object({
    playlistId: Id('playlist id'),
    name: Type.Optional(Name),
    comment: Type.Optional(Type.String({ maxLength: 1024 })),
    public: Type.Optional(Type.Boolean()),
    songIdToAdd: OneOrMore(Id('song id'), 'songs to append, in order'),
    songIndexToRemove: OneOrMore(Type.Integer({ minimum: 0 }), 'indexes in the playlist before this change'),
  }),
  output: LibraryEnvelope({ atprotoError: Type.Optional(Type.String({ description: 'never present: Earshot publishes playlists nowhere' })) }),
  errors: ['InvalidRequest', 'Forbidden', 'NotFound'],
  handler: ({ input, viewer, ctx }) =>
    inEnvelope(async () => {
      await updatePlaylist(ctx.db, viewer.userId, input.playlistId, {
        name: input.name,
        comment: input.comment,
        public: input.public,
        add: listOf(input.songIdToAdd),
        remove: listOf(input.songIndexToRemove),
      });
      return {};
    }),
});

const deletePlaylistOp = defineProcedure({
  nsid: 'app.svc.library.deletePlaylist',
  summary: "Delete the caller's playlist (403 for another user's public one, 404 for one the caller cannot see)",
  auth: 'required',
  input: Type.Object({ id: Id('playlist id') }),
  output: Empty,
  errors: ['InvalidRequest', 'Forbidden', 'NotFound'],
  handler: ({ input, viewer, ctx }) =>
    inEnvelope(async () => {
      await deletePlaylist(ctx.db, viewer.userId, input.id);
      return {};
    }),
});

const getStarred = defineQuery({
  nsid: 'app.svc.library.getStarred',
  summary: 'The artists, albums and songs the caller starred, newest star first',
  auth: 'required',
  output: LibraryEnvelope({ starred: Starred }),
  handler: ({ viewer, ctx }) => inEnvelope(async () => ({ starred: await starred(ctx.db, viewer.userId) })),
});

const Page = {
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'items to skip; a page shorter than limit is the last' }),
};

const getArtists = defineQuery({
  nsid: 'app.svc.library.getArtists',
  summary: "The library's artists (album artists, else track artists, of the songs the caller can play), by name",
  auth: 'required',
  params: Type.Object(Page),
  output: LibraryEnvelope({ artists: Type.Object({ artist: Type.Array(LibraryArtist) }) }),
  errors: ['InvalidRequest'],
  handler: ({ params, viewer, ctx }) => inEnvelope(async () => ({ artists: { artist: await libraryArtists(ctx.db, viewer.userId, params) } })),
});

const getAlbums = defineQuery({
  nsid: 'app.svc.library.getAlbums',
  summary: "The library's albums (those with a song the caller can play), by title; with artistId, that artist's, by year then title",
  auth: 'required',
  params: Type.Object({ ...Page, artistId: Type.Optional(Id('an artist id (unknown: 404)')) }),
  output: LibraryEnvelope({ albums: Type.Object({ album: Type.Array(LibraryAlbum) }) }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, viewer, ctx }) => inEnvelope(async () => ({ albums: { album: await libraryAlbums(ctx.db, viewer.userId, params, params.artistId) } })),
});

const getAlbum = defineQuery({
  nsid: 'app.svc.library.getAlbum',
  summary: 'One album of the library with the songs of it the caller can play, by disc and track (404 when there are none)',
  auth: 'required',
  params: Type.Object({ id: Id('album id') }),
  output: LibraryEnvelope({ album: LibraryAlbumWithSongs }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, viewer, ctx }) => inEnvelope(async () => ({ album: await libraryAlbum(ctx.db, viewer.userId, params.id) })),
});

const getDirectory = defineQuery({
  nsid: 'app.svc.library.getDirectory',
  summary:
    "A directory of the server's music folder, from its last scan: its files, subdirectories and parent, with the field names of the file hosts' getFiles. " +
    'Paths are relative to the music folder ("/" is the folder itself)',
  auth: 'required',
  params: Type.Object({
    at: Type.Optional(
      Type.String({ maxLength: 4096, description: 'a directory id, or a path in the music folder (e.g. /Artist/Album); default the music folder' }),
    ),
  }),
  output: listing(FileA),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, ctx }) => asXrpc(() => localDirectory(ctx.db, ctx.config.musicDir, params.at)),
});

const getStreamUrl = defineQuery({
  nsid: 'app.svc.library.getStreamUrl',
  summary:
    `A URL that streams one song the caller can play, signed for them and valid for ${STREAM_URL_SECONDS / 3600} hours (Range requests work): ` +
    "for players that cannot send an Authorization header, such as the web app's <audio> element",
  auth: 'required',
  params: Type.Object({ id: Id('song id') }),
  output: Type.Object({
    url: Type.String({ description: 'a path on this host: /library/stream/<id>?u=…&exp=…&sig=…' }),
    expiresAt: Type.String({ format: 'date-time' }),
  }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, viewer, ctx }) =>
    asXrpc(async () => {
      if (!isUuid(params.id) || !(await playableFile(ctx.db, viewer.userId, params.id.toLowerCase()))) throw libraryNotFound(`no song ${params.id}`);
      return signStreamUrl(ctx.keys, viewer.userId, params.id.toLowerCase());
    }),
});

export const libraryOperations = [
  updatePlaylistOp,
  unstarOp,
  starOp,
  updateNowPlaying,
  getPlaylists,
  createPlaylistOp,
  deletePlaylistOp,
  getPlaylistOp,
  getStarred,
  getArtists,
  getAlbums,
  getAlbum,
  getDirectory,
  getStreamUrl,
];
