/** The `app.svc.charts` group: plays per day, for one user or everyone. */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';
import { ActorParam } from '../../core/auth/index.ts';
import { readScrobblesChart } from '../../core/stats/heavy-reads.ts';
import { DayCount } from '../../core/stats/schemas.ts';
import { TimeZoneParam } from '../../core/stats/time-zone.ts';
import { LocalDate } from './shared/local-date.ts';
import { daysOf, PeriodParams } from './shared/period-params.ts';

const getScrobblesChart = defineQuery({
  nsid: 'app.svc.charts.getScrobblesChart',
  summary: 'Plays per day, for one user or everyone; only days with plays, oldest first',
  auth: 'none',
  heavy: true,
  params: Type.Object({
    did: Type.Optional(ActorParam('DID or handle of the user; everyone when absent')),
    startDate: LocalDate('first local day counted (YYYY-MM-DD)'),
    endDate: LocalDate('local day after the last one counted (YYYY-MM-DD)'),
    ...PeriodParams,
    tz: TimeZoneParam,
  }),
  output: Type.Object({ chart: Type.Array(DayCount) }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, ctx }) => readScrobblesChart(ctx.db, { actor: params.did, ...daysOf(params) }),
});

export const chartsOperations = [getScrobblesChart];
