import { Type } from '@sinclair/typebox';
import { sql, type RawBuilder } from 'kysely';
import type { SortKey } from './page-query.ts';
import { notFound } from '../../toolkit/errors.ts';
import { defineQuery } from '../../adapters/http/operation.ts';
import { albumPlayCount, selectAlbums, selectArtists } from './group-view.ts';
import { resolvedId, referenceSchema } from './references.ts';
import { AlbumView, ArtistView, Song } from './schemas.ts';
import { hasListedSong, listedSongs, selectSongs, toSong } from './song-view.ts';

const TOP_COUNT = 10;
/** More tracks than any real release has; bounds the response all the same. */
export const MAX_ALBUM_TRACKS = 1000;

const songPlayCount = sql`(select count(*) from scrobbles s where s.track_id = t.id)`;

const mostPlayed = (playCount: RawBuilder<unknown>, id: string): SortKey[] => [
  { expression: playCount, direction: 'desc' },
  { expression: sql.ref(id), direction: 'asc' },
];

export const getArtist = defineQuery({
  nsid: 'app.svc.artist.getArtist',
  summary: 'An artist with play statistics, their most played songs and albums',
  auth: 'optional',
  params: referenceSchema('artist'),
  output: Type.Object({ artist: ArtistView, topSongs: Type.Array(Song), topAlbums: Type.Array(AlbumView) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const id = await resolvedId(ctx.db, 'artist', params);
    const [artist] = await selectArtists(ctx.db, { where: sql`ar.id = ${id}`, order: [], limit: 1 });
    if (!artist) throw notFound(`no artist ${id}`);
    const [songs, topAlbums] = await Promise.all([
      selectSongs(ctx.db, listedSongs(ctx.db), { where: sql`t.artist_id = ${id}`, order: mostPlayed(songPlayCount, 't.id'), limit: TOP_COUNT }, viewer?.userId ?? null),
      selectAlbums(ctx.db, { where: sql`al.artist_id = ${id} and ${hasListedSong('album_id', 'al')}`, order: mostPlayed(albumPlayCount, 'al.id'), limit: TOP_COUNT }),
    ]);
    return { artist, topSongs: songs.map(toSong), topAlbums };
  },
});

/** Disc by disc, track by track; unnumbered tracks last, by title. */
export const ALBUM_ORDER: SortKey[] = [
  { expression: sql`t.disc_number is null`, direction: 'asc' },
  { expression: sql.ref('t.disc_number'), direction: 'asc' },
  { expression: sql`t.track_number is null`, direction: 'asc' },
  { expression: sql.ref('t.track_number'), direction: 'asc' },
  { expression: sql.ref('t.title'), direction: 'asc' },
  { expression: sql.ref('t.id'), direction: 'asc' },
];

export const getAlbum = defineQuery({
  nsid: 'app.svc.album.getAlbum',
  summary: 'An album with play statistics and its tracks in disc and track order',
  auth: 'optional',
  params: referenceSchema('album'),
  output: Type.Object({ album: AlbumView, tracks: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const id = await resolvedId(ctx.db, 'album', params);
    const [album] = await selectAlbums(ctx.db, { where: sql`al.id = ${id}`, order: [], limit: 1 });
    if (!album) throw notFound(`no album ${id}`);
    const tracks = await selectSongs(ctx.db, listedSongs(ctx.db), { where: sql`t.album_id = ${id}`, order: ALBUM_ORDER, limit: MAX_ALBUM_TRACKS }, viewer?.userId ?? null);
    return { album, tracks: tracks.map(toSong) };
  },
});

export const artistAlbumOperations = [getArtist, getAlbum];
