import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../toolkit/schemas.ts';
import { PERIODS } from './window.ts';

const Count = Type.Integer({ minimum: 0 });
const Opt = Type.Optional;

export const DayCount = Type.Object({ date: Type.String({ format: 'date' }), count: Count });

export const ClockCell = Type.Object({
  weekday: Type.Integer({ minimum: 0, maximum: 6, description: 'local weekday, Monday = 0' }),
  hour: Type.Integer({ minimum: 0, maximum: 23, description: 'local hour of day' }),
  count: Type.Integer({ minimum: 1 }),
});

const Moment = Type.Object({ trackTitle: Type.String(), artistName: Type.String(), timestamp: DateTime(), trackUri: Type.String() });

/** Wrapped statistics (spec 2.5, the newer variant with period and window). */
export const Wrapped = Type.Object({
  year: Type.Integer(),
  period: Type.Union(PERIODS.map((period) => Type.Literal(period))),
  startDate: DateTime({ description: 'inclusive start of the window' }),
  endDate: DateTime({ description: 'exclusive end of the window' }),
  totalScrobbles: Count,
  totalListeningTimeMinutes: Type.Integer({
    minimum: 0,
    description: "each play's played time where the client reported it (see measuredScrobbles), else its track's known duration; summed, rounded down",
  }),
  measuredScrobbles: Opt(Type.Integer({ minimum: 0, description: 'plays whose client reported how long they were played' })),
  measuredListeningTimeMinutes: Opt(
    Type.Integer({
      minimum: 0,
      description: 'the part of totalListeningTimeMinutes measured: the reported played time of measuredScrobbles plays, rounded down',
    }),
  ),
  topArtists: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), picture: Opt(Type.String()), uri: Type.String(), playCount: Count }), {
    maxItems: 5,
  }),
  topTracks: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      artist: Type.String(),
      albumArt: Opt(Type.String()),
      uri: Type.String(),
      artistUri: Opt(Type.String()),
      albumUri: Opt(Type.String()),
      playCount: Count,
    }),
    { maxItems: 5 },
  ),
  topAlbums: Type.Array(
    Type.Object({ id: Type.String(), title: Type.String(), artist: Type.String(), albumArt: Opt(Type.String()), uri: Type.String(), playCount: Count }),
    { maxItems: 6 },
  ),
  topGenres: Type.Array(Type.Object({ genre: Type.String(), count: Count }), { maxItems: 10 }),
  scrobblesPerMonth: Type.Array(Type.Object({ month: Type.Integer({ minimum: 1, maximum: 12 }), count: Count })),
  scrobblesPerDay: Type.Array(DayCount, { description: 'UTC days with plays' }),
  mostActiveDay: Opt(DayCount),
  mostActiveHour: Type.Integer({ minimum: 0, maximum: 23 }),
  newArtistsCount: Count,
  longestStreak: Count,
  firstScrobble: Opt(Moment),
  lastScrobble: Opt(Moment),
});
export type Wrapped = Static<typeof Wrapped>;

/** A user as the entity statistics name them: profiles are public. */
export const Listener = Type.Object({ did: Type.String(), handle: Type.String(), displayName: Opt(Type.String()), avatar: Opt(Type.String()) });

const playFields = {
  playedAt: DateTime(),
  songId: Type.String(),
  songUri: Type.String(),
  songTitle: Type.String(),
};

/** One play of an artist's, album's or song's: when, which song, and (for everyone's) whose. */
export const EntityPlay = Type.Object({ ...playFields, listener: Listener });
export const ViewerPlay = Type.Object(playFields);

export const EntityKind = Type.Union([Type.Literal('artist'), Type.Literal('album'), Type.Literal('song')]);
export type EntityKind = Static<typeof EntityKind>;

export const EntityMonth = Type.Object({
  month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'UTC month, YYYY-MM' }),
  plays: Count,
  viewerPlays: Opt(Type.Integer({ minimum: 0, description: "the signed-in viewer's plays; absent when signed out" })),
  rank: Opt(Type.Integer({ minimum: 1, description: '1 + how many entities of the same kind had more plays that month; absent without plays' })),
});

/** An artist's, album's or song's plays over time, its first and last plays and its top listeners (getEntityStats). */
export const EntityStats = Type.Object({
  kind: EntityKind,
  id: Type.String({ description: 'the id the entity has now (a merged-away id resolves to its survivor)' }),
  months: Type.Array(EntityMonth, { maxItems: 120, description: 'oldest first, ending with the current month' }),
  firstPlay: Opt(EntityPlay),
  lastPlay: Opt(EntityPlay),
  viewerFirstPlay: Opt(ViewerPlay),
  viewerLastPlay: Opt(ViewerPlay),
  topListeners: Type.Array(Type.Object({ ...Listener.properties, plays: Type.Integer({ minimum: 1 }) }), {
    maxItems: 10,
    description: 'all time, most plays first',
  }),
});
export type EntityStats = Static<typeof EntityStats>;
