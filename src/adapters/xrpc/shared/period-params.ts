import { Type } from '@sinclair/typebox';
import type { DaysRequest } from '../../../core/stats/heavy-reads.ts';
import { PERIODS, type Period } from '../../../core/stats/window.ts';

/** A chart's or clock's period, instead of startDate and endDate: the very window getWrapped counts for it. */
export const PeriodParams = {
  period: Type.Optional(
    Type.Union(
      PERIODS.map((period) => Type.Literal(period)),
      { description: 'a calendar year or a rolling window ending now, counted as getWrapped counts it; not with startDate or endDate' },
    ),
  ),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz for period=year; default the current one' })),
};

/** The days a chart or clock request names, as the stats reads take them. */
export const daysOf = (params: { startDate?: string; endDate?: string; period?: Period; year?: number; tz?: string }): DaysRequest => ({
  startDate: params.startDate,
  endDate: params.endDate,
  period: params.period,
  year: params.year,
  timeZone: params.tz,
});
