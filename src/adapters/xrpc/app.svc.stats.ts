/** The `app.svc.stats` group: a user's Wrapped and listening clock, and an artist's, album's or song's statistics. */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';
import { ActorParam } from '../../core/auth/index.ts';
import { anyKindReferenceSchema, resolvedIdOfKind } from '../../core/catalog/references.ts';
import { DEFAULT_MONTHS, entityStats, MAX_MONTHS } from '../../core/stats/entity.ts';
import { readListeningClock, readWrapped } from '../../core/stats/heavy-reads.ts';
import { ClockCell, EntityKind, EntityStats, Wrapped } from '../../core/stats/schemas.ts';
import { TimeZoneParam } from '../../core/stats/time-zone.ts';
import { PERIODS } from '../../core/stats/window.ts';
import { LocalDate } from './shared/local-date.ts';
import { daysOf, PeriodParams } from './shared/period-params.ts';

const getWrapped = defineQuery({
  nsid: 'app.svc.stats.getWrapped',
  summary: "A user's Wrapped: totals, top lists and listening patterns over a calendar year or a rolling window",
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: ActorParam(),
    year: Type.Optional(
      Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz; default the current one; ignored for rolling periods' }),
    ),
    period: Type.Union(
      PERIODS.map((period) => Type.Literal(period)),
      { default: 'year', description: 'year, or a rolling window ending now' },
    ),
    tz: TimeZoneParam,
  }),
  output: Wrapped,
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, ctx }) => readWrapped(ctx.db, { actor: params.did, period: params.period, year: params.year, timeZone: params.tz }),
});

const getListeningClock = defineQuery({
  nsid: 'app.svc.stats.getListeningClock',
  summary: "A user's plays by local weekday and hour of day; only cells with plays, Monday 00:00 first",
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: ActorParam(),
    startDate: LocalDate('first local day counted (YYYY-MM-DD)'),
    endDate: LocalDate('local day after the last one counted (YYYY-MM-DD)'),
    ...PeriodParams,
    tz: TimeZoneParam,
  }),
  output: Type.Object({ clock: Type.Array(ClockCell), timeZone: Type.String({ description: 'the time zone hours and weekdays are counted in' }) }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, ctx }) => readListeningClock(ctx.db, { actor: params.did, ...daysOf(params) }),
});

const getEntityStats = defineQuery({
  nsid: 'app.svc.stats.getEntityStats',
  summary: "An artist's, album's or song's plays per UTC month (everyone's, the viewer's) and rank among its kind, first and last plays, and top listeners",
  auth: 'optional',
  heavy: true,
  params: Type.Object({
    kind: EntityKind,
    ...anyKindReferenceSchema(),
    months: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_MONTHS, default: DEFAULT_MONTHS, description: 'how many UTC months, ending with the current one' }),
    ),
  }),
  output: EntityStats,
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const id = await resolvedIdOfKind(ctx.db, params.kind, params);
    return entityStats(ctx.db, { kind: params.kind, id, months: params.months, viewerId: viewer?.userId ?? null });
  },
});

export const statsOperations = [getWrapped, getListeningClock, getEntityStats];
