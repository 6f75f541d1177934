import { Type, type Static } from '@sinclair/typebox';
import { defineQuery } from '../../adapters/http/operation.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { ALL_TIME, type PlaysWindow } from '../stats/rollups/reads.ts';
import { chooseTimeZone, TimeZoneParam } from '../stats/time-zone.ts';
import { PERIODS, statsWindow } from '../stats/window.ts';
import { ActorAlbum, ActorArtist, topAlbums, topArtists, topSongs } from './actor-top.ts';
import { Song } from './schemas.ts';
import { PageParams } from './song-operations.ts';

const ActorParams = Type.Object({
  did: ActorParam(),
  ...PageParams,
  period: Type.Optional(
    Type.Union([Type.Literal('all'), ...PERIODS.map((period) => Type.Literal(period))], { default: 'all', description: 'all time, a calendar year, or a rolling window ending now' }),
  ),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz for period=year; default the current one' })),
  tz: TimeZoneParam,
});

const pageOf = (params: Static<typeof ActorParams>) => ({ limit: params.limit, offset: params.offset });

/** The plays a list counts: all time, or the period's window in the requested zone (else the user's). */
async function actorWindow(db: Database, params: Static<typeof ActorParams>, user: { timezone: string }): Promise<PlaysWindow> {
  if (params.period === undefined || params.period === 'all') return ALL_TIME;
  return statsWindow(db, params.period, params.year, chooseTimeZone(params.tz, user.timezone));
}

export const getActorSongs = defineQuery({
  nsid: 'app.svc.actor.getActorSongs',
  summary: "A user's most played songs, all time or over a period; playCount is that user's",
  auth: 'optional',
  params: ActorParams,
  output: Type.Object({ songs: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return { songs: await topSongs(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params), viewer?.userId ?? null) };
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
    return { artists: await topArtists(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params)) };
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
    return { albums: await topAlbums(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params)) };
  },
});

export const actorOperations = [getActorSongs, getActorArtists, getActorAlbums];
