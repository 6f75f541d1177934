import { Type } from '@sinclair/typebox';
import { sql, type Expression, type SqlBool } from 'kysely';
import { defineQuery } from '../api/operation.ts';
import type { Database } from '../db/index.ts';
import { selectAlbums, selectArtists } from './group-view.ts';
import { ilikeContains } from './like-pattern.ts';
import type { SortKey } from './page-query.ts';
import { AlbumView, ArtistView, Song } from './schemas.ts';
import { hasListedSong, listedSongs, selectSongs, toSong } from './song-view.ts';

const UserResult = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  displayName: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
});

/** Exact (case-insensitive) matches first, then the shortest, then alphabetically; the id keeps it stable. */
function bestMatchFirst(column: string, id: string, q: string): SortKey[] {
  const ref = sql.ref(column);
  return [
    { expression: sql`lower(${ref}) = lower(cast(${q} as text))`, direction: 'desc' },
    { expression: sql`length(${ref})`, direction: 'asc' },
    { expression: ref, direction: 'asc' },
    { expression: sql.ref(id), direction: 'asc' },
  ];
}

const contains = (column: string, q: string): Expression<SqlBool> => ilikeContains(sql.ref(column), q);

async function searchUsers(db: Database, q: string, limit: number) {
  const rows = await db
    .selectFrom('users')
    .select(['did', 'handle', 'display_name', 'avatar'])
    .where((eb) => eb.or([contains('handle', q), contains('display_name', q)]))
    .orderBy(sql`handle = lower(cast(${q} as text))`, 'desc')
    .orderBy(sql`length(handle)`)
    .orderBy('handle')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ did: row.did, handle: row.handle, displayName: row.display_name ?? undefined, avatar: row.avatar ?? undefined }));
}

export const search = defineQuery({
  nsid: 'app.svc.feed.search',
  summary: 'Artists, albums, songs and users whose names contain the query (case-insensitive)',
  auth: 'optional',
  params: Type.Object({
    q: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'per kind of result' }),
  }),
  output: Type.Object({ artists: Type.Array(ArtistView), albums: Type.Array(AlbumView), songs: Type.Array(Song), users: Type.Array(UserResult) }),
  errors: ['InvalidRequest'],
  async handler({ params, viewer, ctx }) {
    const q = params.q.trim();
    const { limit } = params;
    const [artists, albums, songs, users] = await Promise.all([
      selectArtists(ctx.db, { where: sql<SqlBool>`${contains('ar.name', q)} and ${hasListedSong('artist_id', 'ar')}`, order: bestMatchFirst('ar.name', 'ar.id', q), limit }),
      selectAlbums(ctx.db, { where: sql<SqlBool>`${contains('al.title', q)} and ${hasListedSong('album_id', 'al')}`, order: bestMatchFirst('al.title', 'al.id', q), limit }),
      selectSongs(
        ctx.db,
        listedSongs(ctx.db),
        { where: sql<SqlBool>`(${contains('t.title', q)} or ${contains('t.artist', q)})`, order: bestMatchFirst('t.title', 't.id', q), limit },
        viewer?.userId ?? null,
      ),
      searchUsers(ctx.db, q, limit),
    ]);
    return { artists, albums, songs: songs.map(toSong), users };
  },
});
