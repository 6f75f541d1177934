import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { defineQuery } from '../api/operation.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import type { Database } from '../db/index.ts';
import { ALL_TIME, trackPlays, type PlaysWindow } from '../stats/rollups/reads.ts';
import { chooseTimeZone, TimeZoneParam } from '../stats/time-zone.ts';
import { PERIODS, statsWindow } from '../stats/window.ts';
import { albumFields, artistFields } from './group-view.ts';
import { AlbumView, ArtistView, Song } from './schemas.ts';
import { PageParams } from './song-operations.ts';
import { allSongs, selectSongs, toSong } from './song-view.ts';

/** In actor lists, playCount counts the actor's plays only. */
const ActorArtist = Type.Omit(ArtistView, ['uniqueListeners']);
const ActorAlbum = Type.Omit(AlbumView, ['uniqueListeners']);

const ActorParams = Type.Object({
  did: ActorParam(),
  ...PageParams,
  period: Type.Optional(
    Type.Union([Type.Literal('all'), ...PERIODS.map((period) => Type.Literal(period))], { default: 'all', description: 'all time, a calendar year, or a rolling window ending now' }),
  ),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz for period=year; default the current one' })),
  tz: TimeZoneParam,
});

/** The plays a list counts: all time, or the period's window in the requested zone (else the user's). */
async function actorWindow(db: Database, params: Static<typeof ActorParams>, user: { timezone: string }): Promise<PlaysWindow> {
  if (params.period === undefined || params.period === 'all') return ALL_TIME;
  return statsWindow(db, params.period, params.year, chooseTimeZone(params.tz, user.timezone));
}

/** The actor's play count per track, artist or album they played in the window, as (subject_id, play_count), from the rollups. */
export function actorPlays(userId: string, window: PlaysWindow, subject: 'track' | 'artist' | 'album') {
  const counts = trackPlays(userId, window);
  const column = sql.ref(`t.${subject}_id`);
  const grouped =
    subject === 'track'
      ? sql`select track_id as subject_id, plays as play_count from (${counts}) c`
      : sql`select ${column} as subject_id, sum(c.plays)::int as play_count from (${counts}) c join tracks t on t.id = c.track_id where ${column} is not null group by 1`;
  return sql<{ subject_id: string; play_count: number }>`(${grouped})`.as('ap');
}

const MOST_PLAYED_SONGS = [
  { expression: sql.ref('ap.play_count'), direction: 'desc' as const },
  { expression: sql.ref('t.id'), direction: 'asc' as const },
];

export const getActorSongs = defineQuery({
  nsid: 'app.svc.actor.getActorSongs',
  summary: "A user's most played songs, all time or over a period; playCount is that user's",
  auth: 'optional',
  params: ActorParams,
  output: Type.Object({ songs: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const source = allSongs(ctx.db)
      .innerJoin(actorPlays(user.id, await actorWindow(ctx.db, params, user), 'track'), 'ap.subject_id', 't.id')
      .select('ap.play_count as actor_play_count');
    const page = { order: MOST_PLAYED_SONGS, limit: params.limit, offset: params.offset };
    const rows = await selectSongs<{ actor_play_count: number }>(ctx.db, source, page, viewer?.userId ?? null);
    return { songs: rows.map((row) => ({ ...toSong(row), playCount: row.actor_play_count })) };
  },
});

export const getActorArtists = defineQuery({
  nsid: 'app.svc.actor.getActorArtists',
  summary: "A user's most played artists, all time or over a period; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ artists: Type.Array(ActorArtist) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const rows = await ctx.db
      .selectFrom('artists as ar')
      .innerJoin(actorPlays(user.id, await actorWindow(ctx.db, params, user), 'artist'), 'ap.subject_id', 'ar.id')
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
  summary: "A user's most played albums, all time or over a period; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ albums: Type.Array(ActorAlbum) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    const rows = await ctx.db
      .selectFrom('albums as al')
      .innerJoin(actorPlays(user.id, await actorWindow(ctx.db, params, user), 'album'), 'ap.subject_id', 'al.id')
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
