import { describe, expect, test } from 'vitest';
import { chartRange, dayChartLabel, fillDays, formatDay, localDayRange, monthSeries, perMonth, readWrappedView, wrappedHref } from './stats.ts';

describe('day series', () => {
  test('fillDays puts days without plays at zero, across a month end, end exclusive', () => {
    expect(
      fillDays(
        [
          { date: '2024-02-28', count: 3 },
          { date: '2024-03-01', count: 1 },
        ],
        '2024-02-27',
        '2024-03-02',
      ),
    ).toEqual([
      { date: '2024-02-27', count: 0 },
      { date: '2024-02-28', count: 3 },
      { date: '2024-02-29', count: 0 },
      { date: '2024-03-01', count: 1 },
    ]);
  });
  test('perMonth sums days and keeps empty months', () => {
    const days = fillDays(
      [
        { date: '2023-12-31', count: 2 },
        { date: '2024-02-01', count: 5 },
      ],
      '2023-12-30',
      '2024-02-02',
    );
    expect(perMonth(days)).toEqual([
      { month: '2023-12', count: 2 },
      { month: '2024-01', count: 0 },
      { month: '2024-02', count: 5 },
    ]);
  });
  test('a rolling window of N × 24 hours shows the local days it touches, from the one it starts in to today', () => {
    const now = new Date('2024-03-01T02:00:00Z'); // still Feb 29 in New York
    // Seven days before: 21:00 on Feb 22 in New York, 03:00 on Feb 23 in Berlin.
    expect(chartRange('last7days', 2024, 'America/New_York', now)).toEqual({ startDate: '2024-02-22', endDate: '2024-03-01' });
    expect(chartRange('last7days', 2024, 'Europe/Berlin', now)).toEqual({ startDate: '2024-02-23', endDate: '2024-03-02' });
    expect(chartRange('year', 2023, 'UTC', now)).toEqual({ startDate: '2023-01-01', endDate: '2024-01-01' });
    expect(chartRange('all', 2024, 'UTC', now)).toEqual({});
  });
  test('month numbers of a window spanning New Year get their years', () => {
    const months = [11, 12, 1, 11].map((month) => ({ month, count: month }));
    expect(monthSeries(months, '2023-11-24T10:00:00Z', 'UTC').map((m) => m.month)).toEqual(['2023-11', '2023-12', '2024-01', '2024-11']);
  });
  test("a Wrapped's chart days are local days in its zone, and stop at today there", () => {
    // 2024 in New York: from 05:00 UTC on Jan 1 to 05:00 UTC on Jan 1, 2025; local days, not the UTC days it touches.
    const now = new Date('2024-06-11T02:00:00Z'); // still June 10 in New York
    expect(localDayRange('2024-01-01T05:00:00Z', '2025-01-01T05:00:00Z', 'America/New_York', now)).toEqual({ start: '2024-01-01', end: '2024-06-11' });
    expect(localDayRange('2023-01-01T05:00:00Z', '2024-01-01T05:00:00Z', 'America/New_York', now)).toEqual({ start: '2023-01-01', end: '2024-01-01' });
    // A rolling week ending at 02:00 UTC: in Tokyo it starts at 11:00 on June 4 and ends with June 11.
    expect(localDayRange('2024-06-04T02:00:00Z', '2024-06-11T02:00:01Z', 'Asia/Tokyo', now)).toEqual({ start: '2024-06-04', end: '2024-06-12' });
  });
  test('the per-day chart names its zone, span and total', () => {
    const days = fillDays([{ date: '2024-06-05', count: 3 }], '2024-06-04', '2024-06-07');
    expect(dayChartLabel(days, 'Asia/Tokyo')).toBe(`Plays per day in Asia/Tokyo from ${formatDay('2024-06-04')} to ${formatDay('2024-06-06')}, 3 in all.`);
    expect(dayChartLabel([], 'UTC')).toBe('No days to chart in UTC.');
  });
});

describe('the Wrapped URL', () => {
  test('round-trips period, year and zone', () => {
    const href = wrappedHref('björk', { period: 'year', year: 2023, tz: 'Asia/Tokyo' });
    expect(href).toBe('/u/bj%C3%B6rk/wrapped?period=year&year=2023&tz=Asia%2FTokyo');
    expect(readWrappedView(new URL(href, 'http://app').searchParams)).toEqual({ period: 'year', year: 2023, tz: 'Asia/Tokyo' });
  });
  test('falls back to the defaults for what it cannot read, and drops the year of a rolling window', () => {
    expect(readWrappedView(new URLSearchParams('period=forever&year=12'))).toEqual({ period: 'year', year: undefined, tz: undefined });
    expect(readWrappedView(new URLSearchParams('period=last30days&year=2020&tz=%20'))).toEqual({ period: 'last30days', year: undefined, tz: undefined });
  });
});
