import { invalidRequest } from '../../toolkit/errors.ts';
import { ALL_TIME, type PlaysWindow } from '../../core/stats/rollups/reads.ts';

/**
 * ListenBrainz's statistics ranges, in UTC as ListenBrainz computes them. `this_*` is the
 * current week (from Monday), month or year, so far; `week`, `month`, `quarter`,
 * `half_yearly` and `year` the previous whole one; `all_time` every play.
 */
export const STATS_RANGES = ['this_week', 'this_month', 'this_year', 'week', 'month', 'quarter', 'half_yearly', 'year', 'all_time'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

/** 2002-01-01T00:00:00Z, the year Last.fm was founded, where ListenBrainz's all_time starts. */
const ALL_TIME_FROM = new Date(Date.UTC(2002, 0, 1));
const DAY_MS = 24 * 60 * 60 * 1000;

/** A range's own window, and the span shown for it: all_time counts every play yet reports ListenBrainz's bounds. */
export interface RangeWindow {
  range: StatsRange;
  window: PlaysWindow;
  fromTs: number;
  toTs: number;
}

/** One segment of listening activity, [start, end). */
export interface Segment {
  start: Date;
  end: Date;
  label: string;
}

export function statsRangeFrom(value: string | undefined): StatsRange {
  const range = value ?? 'all_time';
  if (!(STATS_RANGES as readonly string[]).includes(range)) throw invalidRequest(`Invalid range: ${range}`);
  return range as StatsRange;
}

const utc = (year: number, month: number, day = 1) => new Date(Date.UTC(year, month, day));
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
const addMonths = (date: Date, months: number) => utc(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate());
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function startOfDay(now: Date): Date {
  return utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/** Monday 00:00 UTC of `now`'s week. */
function startOfWeek(now: Date): Date {
  const day = startOfDay(now);
  return addDays(day, -((day.getUTCDay() + 6) % 7));
}

/** The first day of `now`'s period of `months` months (1, 3, 6 or 12), counted from January. */
function startOfMonths(now: Date, months: number): Date {
  const month = now.getUTCMonth();
  return utc(now.getUTCFullYear(), month - (month % months));
}

const MONTHS_OF: Partial<Record<StatsRange, number>> = { this_month: 1, this_year: 12, month: 1, quarter: 3, half_yearly: 6, year: 12 };

/** [start, end) of the range at `now`: the current period for this_*, the previous one otherwise. */
function rangeBounds(range: Exclude<StatsRange, 'all_time'>, now: Date): { start: Date; end: Date } {
  if (range === 'this_week' || range === 'week') {
    const start = startOfWeek(now);
    return range === 'this_week' ? { start, end: addDays(start, 7) } : { start: addDays(start, -7), end: start };
  }
  const months = MONTHS_OF[range]!;
  const current = startOfMonths(now, months);
  return range.startsWith('this_') ? { start: current, end: addMonths(current, months) } : { start: addMonths(current, -months), end: current };
}

/** The window a range's top lists and daily activity count. */
export function rangeWindow(range: StatsRange, now = new Date()): RangeWindow {
  if (range === 'all_time') return { range, window: ALL_TIME, fromTs: seconds(ALL_TIME_FROM), toTs: seconds(now) };
  const window = rangeBounds(range, now);
  return { range, window, fromTs: seconds(window.start), toTs: seconds(window.end) };
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const WEEKDAYS = [...DAY_NAMES.slice(1), DAY_NAMES[0]!];

const twoDigits = (value: number) => String(value).padStart(2, '0');
/** ListenBrainz's labels: "%A %d %B %Y" for days of a week, "%d %B %Y" for other days and weeks, "%B %Y" for months. */
const LABELS = {
  weekday: (date: Date) => `${DAY_NAMES[date.getUTCDay()]} ${twoDigits(date.getUTCDate())} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`,
  day: (date: Date) => `${twoDigits(date.getUTCDate())} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`,
  month: (date: Date) => `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`,
};

type Step = { days: number } | { months: number };

/**
 * The segments of a range's listening activity, as ListenBrainz lays them out: the range and
 * the one before it, so the two can be compared. Days for weeks and months, weeks for
 * quarters, months for half years and years. A current range (this_*) runs to the end of
 * today: ListenBrainz stops at the start of today, since its statistics are a day behind;
 * ours are live. all_time (years with plays) is not segmented here.
 */
export function activitySegments(range: Exclude<StatsRange, 'all_time'>, now = new Date()): Segment[] {
  const { start, end } = rangeBounds(range, now);
  const current = range.startsWith('this_');
  const layouts: Record<Exclude<StatsRange, 'all_time'>, { from: Date; step: Step; label: (date: Date) => string }> = {
    this_week: { from: addDays(start, -7), step: { days: 1 }, label: LABELS.weekday },
    week: { from: addDays(start, -7), step: { days: 1 }, label: LABELS.weekday },
    this_month: { from: addMonths(start, -1), step: { days: 1 }, label: LABELS.day },
    month: { from: addMonths(start, -1), step: { days: 1 }, label: LABELS.day },
    quarter: { from: addMonths(start, -3), step: { days: 7 }, label: LABELS.day },
    half_yearly: { from: addMonths(start, -6), step: { months: 1 }, label: LABELS.month },
    this_year: { from: addMonths(start, -12), step: { months: 1 }, label: LABELS.month },
    year: { from: addMonths(start, -12), step: { months: 1 }, label: LABELS.month },
  };
  const { from, step, label } = layouts[range];
  const until = current ? addDays(startOfDay(now), 1) : end;
  const segments: Segment[] = [];
  for (let at = from; at < until; ) {
    const next = 'days' in step ? addDays(at, step.days) : addMonths(at, step.months);
    segments.push({ start: at, end: next, label: label(at) });
    at = next;
  }
  return segments;
}
