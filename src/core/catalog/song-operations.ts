import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { notFound } from '../../toolkit/errors.ts';
import { defineProcedure, defineQuery } from '../../adapters/http/operation.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { likeSong, unlikeSong } from './likes.ts';
import { MAX_FILTER_LENGTH } from './rsql/parser.ts';
import { resolvedId, referenceSchema } from './references.ts';
import { Song } from './schemas.ts';
import { songFilterCondition, type SongFilter } from './song-filter.ts';
import { SongSort, songOrder } from './song-sort.ts';
import { allSongs, listedSongs, selectSongs, toSong } from './song-view.ts';

export const PageParams = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
};

/** The songs getSongs answers with; `liked` is relative to `viewerId`. */
export async function listSongs(db: Database, query: SongFilter & { limit: number; offset: number; sort?: string | undefined }, viewerId: string | null): Promise<Song[]> {
  const { limit, offset, sort, ...filter } = query;
  const where = songFilterCondition(filter);
  const rows = await selectSongs(db, listedSongs(db), { where, order: songOrder(sort), limit, offset }, viewerId);
  return rows.map(toSong);
}

export const getSongs = defineQuery({
  nsid: 'app.svc.song.getSongs',
  summary: 'Songs of the catalog, newest first unless sorted otherwise, filtered by the given parameters and an RSQL expression',
  auth: 'optional',
  params: Type.Object({
    ...PageParams,
    sort: Type.Optional(SongSort),
    genre: Type.Optional(Type.String({ minLength: 1, description: 'case-insensitive' })),
    mbid: Type.Optional(Type.String({ minLength: 1, description: 'MusicBrainz recording id' })),
    isrc: Type.Optional(Type.String({ minLength: 1 })),
    spotifyId: Type.Optional(Type.String({ minLength: 1, description: 'streaming-provider track id' })),
    filter: Type.Optional(Type.String({ maxLength: MAX_FILTER_LENGTH, description: 'RSQL expression, e.g. title==*love*;duration>180000' })),
  }),
  output: Type.Object({ tracks: Type.Array(Song) }),
  errors: ['InvalidRequest'],
  async handler({ params, viewer, ctx }) {
    return { tracks: await listSongs(ctx.db, params, viewer?.userId ?? null) };
  },
});

const SongReference = referenceSchema('song');

async function findSong(db: Database, id: string, viewerId: string | null): Promise<Song> {
  const [row] = await selectSongs(db, allSongs(db), { where: sql`t.id = ${id}`, order: [], limit: 1 }, viewerId);
  if (!row) throw notFound(`no song ${id}`);
  return toSong(row);
}

export const getSong = defineQuery({
  nsid: 'app.svc.song.getSong',
  summary: 'One song of the catalog, by id or uri',
  auth: 'optional',
  params: SongReference,
  output: Type.Object({ song: Song }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return { song: await findSong(ctx.db, await resolvedId(ctx.db, 'song', params), viewer?.userId ?? null) };
  },
});

const LikeOutput = Type.Object({ liked: Type.Boolean(), likesCount: Type.Integer({ minimum: 0 }) });

async function songExists(db: Database, id: string): Promise<void> {
  const track = await db.selectFrom('tracks').select('id').where('id', '=', id).executeTakeFirst();
  if (!track) throw notFound(`no song ${id}`);
}

async function likeState(db: Database, id: string, viewerId: string) {
  const song = await findSong(db, id, viewerId);
  return { liked: song.liked, likesCount: song.likesCount };
}

/** likeSong and unlikeSong: the same call, answering the song's like state after `change`. */
function likeOperation<N extends string>(nsid: N, summary: string, change: typeof likeSong) {
  return defineProcedure({
    nsid,
    summary,
    auth: 'required',
    input: SongReference,
    output: LikeOutput,
    errors: ['InvalidRequest', 'NotFound'],
    async handler({ input, viewer, ctx }) {
      const id = await resolvedId(ctx.db, 'song', input);
      await songExists(ctx.db, id);
      await change(ctx.db, viewer.userId, id);
      return likeState(ctx.db, id, viewer.userId);
    },
  });
}

const likeSongOperation = likeOperation('app.svc.song.likeSong', 'Like a song; liking it again changes nothing', likeSong);
const unlikeSongOperation = likeOperation('app.svc.song.unlikeSong', 'Stop liking a song; unliking a song not liked changes nothing', unlikeSong);

export const songOperations = [getSongs, getSong, likeSongOperation, unlikeSongOperation];
