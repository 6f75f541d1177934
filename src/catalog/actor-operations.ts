import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { defineQuery } from '../api/operation.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import type { Database } from '../db/index.ts';
import { albumFields, artistFields } from './group-view.ts';
import { AlbumView, ArtistView, Song } from './schemas.ts';
import { PageParams } from './song-operations.ts';
import { allSongs, selectSongs, toSong } from './song-view.ts';

/** In actor lists, playCount counts the actor's plays only. */
const ActorArtist = Type.Omit(ArtistView, ['uniqueListeners']);
const ActorAlbum = Type.Omit(AlbumView, ['uniqueListeners']);

const ActorParams = Type.Object({ did: ActorParam(), ...PageParams });

/** The actor's play count per track, artist or album they played, as (subject_id, play_count). */
function actorPlays(db: Database, userId: string, subject: 's.track_id' | 't.artist_id' | 't.album_id') {
  return db
    .selectFrom('scrobbles as s')
    .$if(subject !== 's.track_id', (query) => query.innerJoin('tracks as t', 't.id', 's.track_id'))
    .select([sql.ref<string>(subject).as('subject_id'), sql<number>`count(*)::int`.as('play_count')])
    .where('s.user_id', '=', userId)
    .groupBy(sql.ref(subject))
    .as('ap');
}

const MOST_PLAYED_SONGS = [
  { expression: sql.ref('ap.play_count'), direction: 'desc' as const },
  { expression: sql.ref('t.id'), direction: 'asc' as const },
];

export const getActorSongs = defineQuery({
  nsid: 'app.svc.actor.getActorSongs',
  summary: "A user's most played songs; playCount is that user's",
  auth: 'optional',
  params: ActorParams,
  output: Type.Object({ songs: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const source = allSongs(ctx.db)
      .innerJoin(actorPlays(ctx.db, user.id, 's.track_id'), 'ap.subject_id', 't.id')
      .select('ap.play_count as actor_play_count');
    const page = { order: MOST_PLAYED_SONGS, limit: params.limit, offset: params.offset };
    const rows = await selectSongs<{ actor_play_count: number }>(ctx.db, source, page, viewer?.userId ?? null);
    return { songs: rows.map((row) => ({ ...toSong(row), playCount: row.actor_play_count })) };
  },
});

export const getActorArtists = defineQuery({
  nsid: 'app.svc.actor.getActorArtists',
  summary: "A user's most played artists; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ artists: Type.Array(ActorArtist) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const rows = await ctx.db
      .selectFrom('artists as ar')
      .innerJoin(actorPlays(ctx.db, user.id, 't.artist_id'), 'ap.subject_id', 'ar.id')
      .selectAll('ar')
      .select('ap.play_count')
      .orderBy('ap.play_count', 'desc')
      .orderBy('ar.id')
      .limit(params.limit)
      .offset(params.offset)
      .execute();
    return { artists: rows.map((row) => ({ ...artistFields(row), playCount: row.play_count })) };
  },
});

export const getActorAlbums = defineQuery({
  nsid: 'app.svc.actor.getActorAlbums',
  summary: "A user's most played albums; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ albums: Type.Array(ActorAlbum) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const rows = await ctx.db
      .selectFrom('albums as al')
      .innerJoin(actorPlays(ctx.db, user.id, 't.album_id'), 'ap.subject_id', 'al.id')
      .selectAll('al')
      .select('ap.play_count')
      .orderBy('ap.play_count', 'desc')
      .orderBy('al.id')
      .limit(params.limit)
      .offset(params.offset)
      .execute();
    return { albums: rows.map((row) => ({ ...albumFields(row), playCount: row.play_count })) };
  },
});

export const actorOperations = [getActorSongs, getActorArtists, getActorAlbums];
