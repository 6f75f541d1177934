import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XrpcError } from '../../toolkit/errors.ts';
import { ALL_TIME } from '../../core/stats/rollups/reads.ts';
import { activitySegments, rangeWindow, STATS_RANGES, statsRangeFrom, type StatsRange } from './stats-ranges.ts';

/** A Wednesday. */
const NOW = new Date('2024-05-15T12:00:00Z');
const iso = (date: Date) => date.toISOString().slice(0, 10);

describe('ListenBrainz statistics ranges in UTC', () => {
  test('each range’s window: the current period so far, or the previous whole one', () => {
    const expected: Record<Exclude<StatsRange, 'all_time'>, [string, string]> = {
      this_week: ['2024-05-13', '2024-05-20'],
      this_month: ['2024-05-01', '2024-06-01'],
      this_year: ['2024-01-01', '2025-01-01'],
      week: ['2024-05-06', '2024-05-13'],
      month: ['2024-04-01', '2024-05-01'],
      quarter: ['2024-01-01', '2024-04-01'],
      half_yearly: ['2023-07-01', '2024-01-01'],
      year: ['2023-01-01', '2024-01-01'],
    };
    for (const [range, [start, end]] of Object.entries(expected)) {
      const { window, fromTs, toTs } = rangeWindow(range as StatsRange, NOW);
      assert.deepEqual([iso(window.start), iso(window.end)], [start, end], range);
      assert.deepEqual([fromTs, toTs], [Date.parse(start) / 1000, Date.parse(end) / 1000], range);
    }
  });

  test('a Monday is the first day of its own week; the previous week ends where it starts', () => {
    const monday = new Date('2024-05-13T00:00:00Z');
    assert.equal(iso(rangeWindow('this_week', monday).window.start), '2024-05-13');
    assert.equal(iso(rangeWindow('week', monday).window.end), '2024-05-13');
  });

  test('all_time counts every play and reports ListenBrainz’s bounds (2002 to now)', () => {
    const { window, fromTs, toTs } = rangeWindow('all_time', NOW);
    assert.deepEqual(window, ALL_TIME);
    assert.deepEqual([fromTs, toTs], [Date.parse('2002-01-01T00:00:00Z') / 1000, NOW.getTime() / 1000]);
  });

  test('the range is one of the nine, all_time by default; any other is 400', () => {
    assert.equal(statsRangeFrom(undefined), 'all_time');
    for (const range of STATS_RANGES) assert.equal(statsRangeFrom(range), range);
    assert.throws(
      () => statsRangeFrom('fortnight'),
      (error: unknown) => error instanceof XrpcError && error.status === 400 && error.message === 'Invalid range: fortnight',
    );
  });
});

describe('listening activity segments', () => {
  test('week: the days of the previous two weeks, labelled as ListenBrainz labels them', () => {
    const segments = activitySegments('week', NOW);
    assert.equal(segments.length, 14);
    assert.deepEqual([iso(segments[0]!.start), iso(segments.at(-1)!.end)], ['2024-04-29', '2024-05-13']);
    assert.equal(segments[0]!.label, 'Monday 29 April 2024');
    assert.equal(segments[9]!.label, 'Wednesday 08 May 2024');
  });

  test('this_week and this_month run to the end of today', () => {
    const week = activitySegments('this_week', NOW);
    assert.deepEqual([iso(week[0]!.start), iso(week.at(-1)!.end), week.length], ['2024-05-06', '2024-05-16', 10]);
    const month = activitySegments('this_month', NOW);
    assert.deepEqual([iso(month[0]!.start), iso(month.at(-1)!.end), month.length], ['2024-04-01', '2024-05-16', 45]);
    assert.equal(month[0]!.label, '01 April 2024');
  });

  test('quarter: weeks over two quarters; half_yearly, year and this_year: months', () => {
    const quarter = activitySegments('quarter', NOW);
    assert.equal(iso(quarter[0]!.start), '2023-10-01');
    assert.ok(quarter.every((segment) => segment.end.getTime() - segment.start.getTime() === 7 * 86_400_000));
    assert.ok(quarter.at(-1)!.start < new Date('2024-04-01') && quarter.at(-1)!.end >= new Date('2024-04-01'));
    const half = activitySegments('half_yearly', NOW);
    assert.deepEqual([half.length, half[0]!.label, half.at(-1)!.label], [12, 'January 2023', 'December 2023']);
    const year = activitySegments('year', NOW);
    assert.deepEqual([year.length, year[0]!.label, year.at(-1)!.label], [24, 'January 2022', 'December 2023']);
    const thisYear = activitySegments('this_year', NOW);
    assert.deepEqual([thisYear.length, thisYear[0]!.label, thisYear.at(-1)!.label], [17, 'January 2023', 'May 2024']);
  });
});
