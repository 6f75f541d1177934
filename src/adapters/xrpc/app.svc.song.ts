/** The `app.svc.song` group: the catalog's songs, liking them, and the admin's merges and fixes of them. */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { likeSong, unlikeSong } from '../../core/catalog/likes.ts';
import { MAX_FILTER_LENGTH } from '../../core/catalog/rsql/parser.ts';
import { resolvedId, referenceSchema } from '../../core/catalog/references.ts';
import { Song } from '../../core/catalog/schemas.ts';
import { SongSort } from '../../core/catalog/song-sort.ts';
import { changeSongLike, findSong, listSongs } from '../../core/catalog/songs.ts';
import { mergeOperation, updateOperation } from './shared/catalog-edits.ts';
import { PageParams } from './shared/page-params.ts';

const getSongs = defineQuery({
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
  // Cacheable: the songs, their plays (rollups and the queued plays) and likes are committed rows,
  // and no filter reads the clock (RSQL dates are absolute); `liked` is the caller's, which the key holds.
  cache: 'snapshot',
  async handler({ params, viewer, ctx }) {
    return { tracks: await listSongs(ctx.db, params, viewer?.userId ?? null) };
  },
});

const SongReference = referenceSchema('song');

const getSong = defineQuery({
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
      return changeSongLike(ctx, viewer.userId, await resolvedId(ctx.db, 'song', input), change);
    },
  });
}

export const songOperations = [
  getSongs,
  getSong,
  likeOperation('app.svc.song.likeSong', 'Like a song; liking it again changes nothing', likeSong),
  likeOperation('app.svc.song.unlikeSong', 'Stop liking a song; unliking a song not liked changes nothing', unlikeSong),
  mergeOperation('app.svc.song.mergeSongs', 'song'),
  updateOperation('app.svc.song.updateSong', 'song'),
];
