import { Type } from '@sinclair/typebox';
import { defineQuery } from '../../adapters/http/operation.ts';
import { invalidRequest } from '../../toolkit/errors.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import { heavyRead } from '../../toolkit/db/heavy-read.ts';
import { scrobblesPerDay } from './chart.ts';
import { listeningClock } from './clock.ts';
import { ClockCell, DayCount, Wrapped } from './schemas.ts';
import { chooseTimeZone, TimeZoneParam } from './time-zone.ts';
import { PERIODS } from './window.ts';
import { wrappedFor } from './wrapped.ts';

export const getWrapped = defineQuery({
  nsid: 'app.svc.stats.getWrapped',
  summary: "A user's Wrapped: totals, top lists and listening patterns over a calendar year or a rolling window",
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: ActorParam(),
    year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz; default the current one; ignored for rolling periods' })),
    period: Type.Union(PERIODS.map((period) => Type.Literal(period)), { default: 'year', description: 'year, or a rolling window ending now' }),
    tz: TimeZoneParam,
  }),
  output: Wrapped,
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const key = JSON.stringify(['wrapped', params.did, params.period, params.year, params.tz]);
    return heavyRead(ctx.db, key, () => wrappedFor(ctx.db, { actor: params.did, period: params.period, year: params.year, timeZone: params.tz }));
  },
});

const LocalDate = (description: string) => Type.Optional(Type.String({ format: 'date', description }));

export const getScrobblesChart = defineQuery({
  nsid: 'app.svc.charts.getScrobblesChart',
  summary: 'Plays per day, for one user or everyone; only days with plays, oldest first',
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: Type.Optional(ActorParam('DID or handle of the user; everyone when absent')),
    startDate: LocalDate('first local day counted (YYYY-MM-DD)'),
    endDate: LocalDate('local day after the last one counted (YYYY-MM-DD)'),
    tz: TimeZoneParam,
  }),
  output: Type.Object({ chart: Type.Array(DayCount) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const key = JSON.stringify(['chart', params.did, params.startDate, params.endDate, params.tz]);
    return heavyRead(ctx.db, key, async () => {
      const user = params.did === undefined ? null : await userFromActorParam(ctx.db, params.did);
      if (params.startDate && params.endDate && params.startDate >= params.endDate) throw invalidRequest('endDate must be after startDate');
      const timeZone = chooseTimeZone(params.tz, user?.timezone);
      return { chart: await scrobblesPerDay(ctx.db, { userId: user?.id, startDate: params.startDate, endDate: params.endDate, timeZone }) };
    });
  },
});

export const getListeningClock = defineQuery({
  nsid: 'app.svc.stats.getListeningClock',
  summary: "A user's plays by local weekday and hour of day; only cells with plays, Monday 00:00 first",
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: ActorParam(),
    startDate: LocalDate('first local day counted (YYYY-MM-DD)'),
    endDate: LocalDate('local day after the last one counted (YYYY-MM-DD)'),
    tz: TimeZoneParam,
  }),
  output: Type.Object({ clock: Type.Array(ClockCell), timeZone: Type.String({ description: 'the time zone hours and weekdays are counted in' }) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const key = JSON.stringify(['clock', params.did, params.startDate, params.endDate, params.tz]);
    return heavyRead(ctx.db, key, async () => {
      const user = await userFromActorParam(ctx.db, params.did);
      if (params.startDate && params.endDate && params.startDate >= params.endDate) throw invalidRequest('endDate must be after startDate');
      const timeZone = chooseTimeZone(params.tz, user.timezone);
      return { clock: await listeningClock(ctx.db, { userId: user.id, startDate: params.startDate, endDate: params.endDate, timeZone }), timeZone };
    });
  },
});

export const statsOperations = [getWrapped, getScrobblesChart, getListeningClock];
