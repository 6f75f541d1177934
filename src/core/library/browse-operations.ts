/**
 * Browsing the library over XRPC: its artists, albums and an album's songs (what has a file the
 * caller can play) in the library envelope, and the server's music folder a directory at a time as
 * the file hosts' getFiles answer (no envelope, so one browser reads both).
 */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../../adapters/http/operation.ts';
import { listing, FileA } from '../filehost/views.ts';
import { libraryAlbum, libraryAlbums, libraryArtists } from './browse.ts';
import { localDirectory } from './local-directory.ts';
import { asXrpc, inEnvelope } from './operations-call.ts';
import { LibraryAlbum, LibraryAlbumWithSongs, LibraryArtist, LibraryEnvelope } from './schemas.ts';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
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
  handler: ({ params, viewer, ctx }) =>
    inEnvelope(async () => ({ albums: { album: await libraryAlbums(ctx.db, viewer.userId, params, params.artistId) } })),
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
    at: Type.Optional(Type.String({ maxLength: 4096, description: 'a directory id, or a path in the music folder (e.g. /Artist/Album); default the music folder' })),
  }),
  output: listing(FileA),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, ctx }) => asXrpc(() => localDirectory(ctx.db, ctx.config.musicDir, params.at)),
});

export const libraryBrowseOperations = [getArtists, getAlbums, getAlbum, getDirectory];
