import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { Database, DB } from '../../toolkit/db/index.ts';
import type { AlbumView as AlbumViewSchema, ArtistView as ArtistViewSchema, SongView as SongViewSchema } from './schemas.ts';

/**
 * The library's views of songs, albums and artists, in the Subsonic shapes (OpenSubsonic's
 * `Child`, `AlbumID3`, `ArtistID3`): the Subsonic API answers with them directly and the XRPC
 * library operations carry them in their envelope, so both speak one vocabulary. A song's id is
 * its catalog track id, the id plays, likes, stars and playlists use; its file is the one a
 * stream of that id plays (see `playableFile`).
 */

/** The view types come from their TypeBox declarations (schemas.ts), which the XRPC operations also validate and document with. */
export type SongView = Static<typeof SongViewSchema>;
export type AlbumView = Static<typeof AlbumViewSchema>;
export type ArtistView = Static<typeof ArtistViewSchema>;

/** Sources a user sees: the server-wide ones and their own. */
export function visibleSource(eb: ExpressionBuilder<DB, 'library_sources'>, userId: string): Expression<SqlBool> {
  return eb.or([eb('library_sources.user_id', 'is', null), eb('library_sources.user_id', '=', userId)]);
}

/**
 * Whether the track has a file the user can play; `trackId` is a track id column (e.g.
 * `sql.ref('t.id')`); with `sourceId`, a file in that source (a Subsonic music folder) only.
 */
export function hasPlayableFile(trackId: Expression<unknown>, userId: string, sourceId?: number): RawBuilder<SqlBool> {
  const inSource = sourceId === undefined ? sql`` : sql` and pf.source_id = ${sourceId}`;
  return sql<SqlBool>`exists (select 1 from library_files pf join library_sources ps on ps.id = pf.source_id
    where pf.track_id = ${trackId} and (ps.user_id is null or ps.user_id = ${userId})${inSource} offset 0)`;
}

/**
 * Whether the album has a cover for this user: a picture in a library file of one of its songs
 * they see, or one enrichment kept (catalog/enrich/covers.ts). The album, and each of its songs
 * without a picture of its own, then name the album's id as `coverArt`, which getCoverArt serves:
 * the rule of song reads (src/core/song-art.ts), in Subsonic's cover ids.
 */
const albumHasCover = (albumId: Expression<unknown>, userId: string) =>
  // `limit 1` keeps each test a lookup through the album's tracks: without it the planner may hash
  // the first one, reading every track and file of the library for a handful of rows.
  sql<boolean>`(exists (select 1 from tracks at join library_files cf on cf.track_id = at.id join library_sources cs on cs.id = cf.source_id
    where at.album_id = ${albumId} and cf.cover is not null and (cs.user_id is null or cs.user_id = ${userId}) limit 1)
    or exists (select 1 from album_covers ac where ac.album_id = ${albumId}))`;

const seconds = (ms: number | null) => (ms === null ? undefined : Math.round(ms / 1000));
const present = <T>(value: T | null): T | undefined => value ?? undefined;
const iso = (value: Date | null) => (value ? value.toISOString() : undefined);

/**
 * The file a stream of a track plays for this user: among the files they see, the server-wide
 * source's before their own, then by path, so the choice is stable across rescans.
 */
export async function playableFile(db: Database, userId: string, trackId: string) {
  return db
    .selectFrom('library_files as f')
    .innerJoin('library_sources', 'library_sources.id', 'f.source_id')
    .select([
      'f.id',
      'f.path',
      'f.name',
      'f.size',
      'f.content_type',
      'f.suffix',
      'f.cover',
      'f.directory_id',
      'f.file_id',
      'library_sources.kind',
      'library_sources.root',
      'library_sources.user_id as owner_id',
    ])
    .where('f.track_id', '=', trackId)
    .where((eb) => visibleSource(eb, userId))
    .orderBy(sql`library_sources.user_id is not null`)
    .orderBy('f.path')
    .limit(1)
    .executeTakeFirst();
}

/** `views` in the order of `ids`: repeats kept, ids without a view dropped. */
function inOrderOf<View extends { id: string }>(ids: readonly string[], views: View[]): View[] {
  const byId = new Map(views.map((view) => [view.id, view]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The song view's columns for tracks `t` (their album joined as `al`) as this user sees them; the
 * caller narrows and orders. One query shape for every list of songs, so a page of them and the
 * songs of an album read the same columns.
 */
function songRows(db: Database, userId: string) {
  return db
    .selectFrom('tracks as t')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('library_files as f')
          .innerJoin('library_sources', 'library_sources.id', 'f.source_id')
          .select(['f.directory_id', 'f.path', 'f.size', 'f.content_type', 'f.suffix', 'f.bit_rate', 'f.duration_ms', 'f.year', 'f.cover'])
          .whereRef('f.track_id', '=', 't.id')
          .where((inner) => visibleSource(inner, userId))
          .orderBy(sql`library_sources.user_id is not null`)
          .orderBy('f.path')
          .limit(1)
          .as('f'),
      (join) => join.onTrue(),
    )
    .leftJoin('stars as st', (join) => join.onRef('st.subject_id', '=', 't.id').on('st.subject_kind', '=', 'song').on('st.user_id', '=', userId))
    .select([
      't.id',
      't.title',
      't.album',
      't.artist',
      't.album_artist',
      't.track_number',
      't.disc_number',
      't.genre',
      't.duration',
      't.bpm',
      't.mbid',
      't.composer',
      't.created_at',
      't.album_id',
      't.artist_id',
      'al.year as album_year',
      'f.directory_id',
      'f.path',
      'f.size',
      'f.content_type',
      'f.suffix',
      'f.bit_rate',
      'f.duration_ms',
      'f.year',
      'f.cover',
      'st.created_at as starred',
      sql<number>`(select count(*)::int from scrobbles sc where sc.track_id = t.id and sc.user_id = ${userId})`.as('play_count'),
      albumHasCover(sql.ref('t.album_id'), userId).as('album_has_cover'),
    ]);
}

type SongRow = Awaited<ReturnType<ReturnType<typeof songRows>['execute']>>[number];

function songView(row: SongRow): SongView {
  return {
    id: row.id,
    parent: present(row.directory_id),
    isDir: false,
    title: row.title,
    album: present(row.album),
    artist: row.artist,
    track: present(row.track_number),
    year: present(row.year) ?? present(row.album_year),
    genre: present(row.genre),
    coverArt: row.cover ? row.id : row.album_has_cover ? present(row.album_id) : undefined,
    size: row.size === null ? undefined : Number(row.size),
    contentType: present(row.content_type),
    suffix: present(row.suffix),
    duration: seconds(row.duration_ms ?? row.duration),
    bitRate: present(row.bit_rate),
    path: present(row.path),
    playCount: row.play_count,
    discNumber: present(row.disc_number),
    created: row.created_at.toISOString(),
    albumId: present(row.album_id),
    artistId: present(row.artist_id),
    type: 'music',
    isVideo: false,
    starred: iso(row.starred),
    bpm: present(row.bpm),
    musicBrainzId: present(row.mbid),
    genres: row.genre ? [{ name: row.genre }] : [],
    displayArtist: row.artist,
    displayAlbumArtist: present(row.album_artist),
    displayComposer: present(row.composer),
  };
}

/** Song views of tracks, in the order of `trackIds` (repeats kept; unknown ids dropped). */
export async function songViews(db: Database, userId: string, trackIds: readonly string[]): Promise<SongView[]> {
  if (trackIds.length === 0) return [];
  return inOrderOf(trackIds, await songViewsWhere(db, userId, (query) => query.where('t.id', 'in', [...new Set(trackIds)])));
}

/** Song views of the tracks `t` that `narrow` keeps, in its order: a page of songs found and shown in one statement. */
export async function songViewsWhere(
  db: Database,
  userId: string,
  narrow: (query: ReturnType<typeof songRows>) => ReturnType<typeof songRows>,
): Promise<SongView[]> {
  return (await narrow(songRows(db, userId)).execute()).map(songView);
}

const albumPlayCount = (albumId: Expression<unknown>, userId: string) =>
  sql<number>`(select count(*)::int from scrobbles sc join tracks at on at.id = sc.track_id where at.album_id = ${albumId} and sc.user_id = ${userId})`;

/** What an album view is made of; `song_count` and `duration_ms` cover the songs the user can play. */
interface AlbumRow {
  id: string;
  title: string;
  artist: string;
  artist_id: string | null;
  created_at: Date;
  year: number | null;
  genre: string | null;
  mbid: string | null;
  starred: Date | null;
  song_count: number;
  duration_ms: number;
  play_count: number;
  has_cover: boolean;
}

function albumView(row: AlbumRow): AlbumView {
  return {
    id: row.id,
    name: row.title,
    artist: row.artist,
    artistId: present(row.artist_id),
    coverArt: row.has_cover ? row.id : undefined,
    songCount: row.song_count,
    duration: seconds(row.duration_ms) ?? 0,
    playCount: row.play_count,
    created: row.created_at.toISOString(),
    year: present(row.year),
    genre: present(row.genre),
    starred: iso(row.starred),
    musicBrainzId: present(row.mbid),
  };
}

/**
 * An album with its playable songs (by disc, track and title) in one statement, or null when the
 * user can play none of it; `albumId` is an expression naming the album (an alias already resolved,
 * see catalog/aliases.ts). The album's own figures come from its songs' rows: one read of the
 * album's tracks serves both, where an album view then a list of songs would read them three times.
 */
export async function albumWithSongs(db: Database, userId: string, albumId: Expression<string>): Promise<{ album: AlbumView; songs: SongView[] } | null> {
  const rows = await songRows(db, userId)
    .leftJoin('stars as ast', (join) => join.onRef('ast.subject_id', '=', 't.album_id').on('ast.subject_kind', '=', 'album').on('ast.user_id', '=', userId))
    .select([
      'al.title as album_title',
      'al.artist as album_credit',
      'al.artist_id as album_artist_id',
      'al.created_at as album_created',
      'al.genre as album_genre',
      'al.mbid as album_mbid',
      'ast.created_at as album_starred',
      albumPlayCount(albumId, userId).as('album_play_count'),
    ])
    .where('t.album_id', '=', albumId)
    .where(hasPlayableFile(sql.ref('t.id'), userId))
    .orderBy(sql`t.disc_number nulls first`)
    .orderBy(sql`t.track_number nulls last`)
    .orderBy('t.title_key')
    .execute();
  const first = rows[0];
  if (!first || first.album_title === null || first.album_credit === null || first.album_created === null) return null;
  const album = albumView({
    id: first.album_id!,
    title: first.album_title,
    artist: first.album_credit,
    artist_id: first.album_artist_id,
    created_at: first.album_created,
    year: first.album_year,
    genre: first.album_genre,
    mbid: first.album_mbid,
    starred: first.album_starred,
    song_count: rows.length,
    duration_ms: rows.reduce((sum, row) => sum + (row.duration ?? 0), 0),
    play_count: first.album_play_count,
    has_cover: Boolean(first.album_has_cover),
  });
  return { album, songs: rows.map(songView) };
}

/** The album view's columns for albums `al` as this user sees them; the caller narrows and orders. */
function albumRows(db: Database, userId: string) {
  return db
    .selectFrom('albums as al')
    .leftJoin('stars as st', (join) => join.onRef('st.subject_id', '=', 'al.id').on('st.subject_kind', '=', 'album').on('st.user_id', '=', userId))
    .select([
      'al.id',
      'al.title',
      'al.artist',
      'al.artist_id',
      'al.created_at',
      'al.year',
      'al.genre',
      'al.mbid',
      'st.created_at as starred',
      sql<number>`(select count(*)::int from tracks at where at.album_id = al.id and ${hasPlayableFile(sql.ref('at.id'), userId)})`.as('song_count'),
      sql<number>`(select coalesce(sum(at.duration), 0)::bigint from tracks at where at.album_id = al.id and ${hasPlayableFile(sql.ref('at.id'), userId)})`.as(
        'duration_ms',
      ),
      albumPlayCount(sql.ref('al.id'), userId).as('play_count'),
      albumHasCover(sql.ref('al.id'), userId).as('has_cover'),
    ]);
}

/** Album views, in the order of `albumIds`; counts and durations cover the songs the user can play. */
export async function albumViews(db: Database, userId: string, albumIds: readonly string[]): Promise<AlbumView[]> {
  if (albumIds.length === 0) return [];
  return inOrderOf(albumIds, await albumViewsWhere(db, userId, (query) => query.where('al.id', 'in', [...new Set(albumIds)])));
}

/** Album views of the albums `al` that `narrow` keeps, in its order. */
export async function albumViewsWhere(
  db: Database,
  userId: string,
  narrow: (query: ReturnType<typeof albumRows>) => ReturnType<typeof albumRows>,
): Promise<AlbumView[]> {
  const rows = await narrow(albumRows(db, userId)).execute();
  // A bigint sum arrives as text from node-postgres.
  return rows.map((row) => albumView({ ...row, duration_ms: Number(row.duration_ms) }));
}

/** The artist view's columns for artists `ar` as this user sees them; the caller narrows and orders. */
function artistRows(db: Database, userId: string) {
  return db
    .selectFrom('artists as ar')
    .leftJoin('stars as st', (join) => join.onRef('st.subject_id', '=', 'ar.id').on('st.subject_kind', '=', 'artist').on('st.user_id', '=', userId))
    .select([
      'ar.id',
      'ar.name',
      'ar.mbid',
      'ar.picture',
      'st.created_at as starred',
      sql<number>`(select count(*)::int from albums aa where aa.artist_id = ar.id
        and exists (select 1 from tracks at where at.album_id = aa.id and ${hasPlayableFile(sql.ref('at.id'), userId)}))`.as('album_count'),
    ]);
}

/** Artist views, in the order of `artistIds`; albumCount counts albums with a song the user can play. */
export async function artistViews(db: Database, userId: string, artistIds: readonly string[]): Promise<ArtistView[]> {
  if (artistIds.length === 0) return [];
  return inOrderOf(artistIds, await artistViewsWhere(db, userId, (query) => query.where('ar.id', 'in', [...new Set(artistIds)])));
}

/** Artist views of the artists `ar` that `narrow` keeps, in its order. */
export async function artistViewsWhere(
  db: Database,
  userId: string,
  narrow: (query: ReturnType<typeof artistRows>) => ReturnType<typeof artistRows>,
): Promise<ArtistView[]> {
  const rows = await narrow(artistRows(db, userId)).execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    albumCount: row.album_count,
    starred: iso(row.starred),
    musicBrainzId: present(row.mbid),
    artistImageUrl: present(row.picture),
  }));
}
