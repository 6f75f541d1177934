/**
 * The arithmetic behind the profile's statistics and the Wrapped page: periods, local dates in a
 * time zone, gap-free day series, and the Wrapped URL (period, year and tz live in the query so a
 * Wrapped can be linked).
 */
import type { Output, Params } from '../api/xrpc.ts';

export type WrappedData = Output<'app.svc.stats.getWrapped'>;
export type WrappedPeriod = NonNullable<Params<'app.svc.stats.getWrapped'>['period']>;
export type DayCount = WrappedData['scrobblesPerDay'][number];

/** Every rolling period the API takes, the spec's source system's names too (src/stats/window.ts); the picker offers Earshot's. */
export const ROLLING_DAYS = { last7days: 7, last30days: 30, last90days: 90, last365days: 365, week: 7, '2weeks': 14, month: 30, '3months': 90 } as const;
export const WRAPPED_PERIODS: { value: WrappedPeriod; label: string }[] = [
  { value: 'last7days', label: 'Last 7 days' },
  { value: 'last30days', label: 'Last 30 days' },
  { value: 'last90days', label: 'Last 90 days' },
  { value: 'last365days', label: 'Last 365 days' },
  { value: 'year', label: 'A calendar year' },
];
const PERIOD_VALUES = new Set<string>(WRAPPED_PERIODS.map((period) => period.value));
export const isWrappedPeriod = (value: string | null): value is WrappedPeriod => value !== null && PERIOD_VALUES.has(value);

/** The browser's IANA time zone (UTC if it has none). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A zone Intl knows, else null: local dates are only computed in a zone that exists (the server judges the rest). */
export function knownTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const DAY = 86_400_000;

/** The calendar date (YYYY-MM-DD) of `moment` in `timeZone`. */
export function localDate(moment: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(moment);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A YYYY-MM-DD date moved by `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Every day from `start` to `end` (exclusive), those without plays at zero: a chart of only active days would hide the gaps. */
export function fillDays(days: readonly DayCount[], start: string, end: string): DayCount[] {
  const counts = new Map(days.map((day) => [day.date, day.count]));
  const filled: DayCount[] = [];
  for (let date = start; date < end; date = addDays(date, 1)) filled.push({ date, count: counts.get(date) ?? 0 });
  return filled;
}

/** Plays per month (YYYY-MM), for spans too long to show day by day; months without plays at zero. */
export function perMonth(days: readonly DayCount[]): { month: string; count: number }[] {
  if (days.length === 0) return [];
  const totals = new Map<string, number>();
  for (const day of days) totals.set(day.date.slice(0, 7), (totals.get(day.date.slice(0, 7)) ?? 0) + day.count);
  const months: { month: string; count: number }[] = [];
  const last = days[days.length - 1]!.date.slice(0, 7);
  for (let month = days[0]!.date.slice(0, 7); month <= last; month = addDays(`${month}-01`, 32).slice(0, 7)) {
    months.push({ month, count: totals.get(month) ?? 0 });
  }
  return months;
}

/** What the profile's picker offers: a Wrapped period, or all time (the actor's all-time top lists). */
export type ProfilePeriod = WrappedPeriod | 'all';

/**
 * The local days [startDate, endDate) a profile period's chart shows: those its window touches up to
 * today. A rolling window starts N × 24 hours ago (as the server counts it), so part of its first
 * day is in; all time has no bounds.
 */
export function chartRange(period: ProfilePeriod, year: number, timeZone: string, now = new Date()): { startDate?: string; endDate?: string } {
  if (period === 'all') return {};
  if (period === 'year') return { startDate: `${year}-01-01`, endDate: `${year + 1}-01-01` };
  return { startDate: localDate(new Date(now.getTime() - ROLLING_DAYS[period] * DAY), timeZone), endDate: addDays(localDate(now, timeZone), 1) };
}

export interface WrappedView {
  period: WrappedPeriod;
  /** Only for the calendar year; the current one when absent. */
  year?: number | undefined;
  /** Absent: the default (the user's own zone, else the browser's). */
  tz?: string | undefined;
}

/** The Wrapped choices a URL's query holds; anything unreadable falls back to the defaults. */
export function readWrappedView(search: URLSearchParams): WrappedView {
  const period = search.get('period');
  const year = Number(search.get('year'));
  const tz = search.get('tz')?.trim();
  return {
    period: isWrappedPeriod(period) ? period : 'year',
    year: period === 'year' || period === null ? (Number.isInteger(year) && year >= 2000 && year <= 9999 ? year : undefined) : undefined,
    tz: tz || undefined,
  };
}

export function wrappedHref(handle: string, view: WrappedView): string {
  const query = new URLSearchParams({ period: view.period });
  if (view.period === 'year' && view.year !== undefined) query.set('year', String(view.year));
  if (view.tz) query.set('tz', view.tz);
  return `/u/${encodeURIComponent(handle)}/wrapped?${query}`;
}

export function periodLabel(period: WrappedPeriod, year: number): string {
  return period === 'year' ? String(year) : WRAPPED_PERIODS.find((p) => p.value === period)!.label;
}

/** "1 h 5 min", "3 d 4 h": listening time the way a person reads it. */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** "21:00–22:00" for hour 21. */
export const formatHour = (hour: number) => `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;

/** A YYYY-MM-DD date as words, read as a calendar date (no zone shift). */
export const formatDay = (date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, { ...options, timeZone: 'UTC' });

/** An instant as a date and time in `timeZone`. */
export function formatInstant(iso: string, timeZone: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Date(iso).toLocaleString(undefined, { ...options, timeZone: knownTimeZone(timeZone) ?? 'UTC' });
}

/**
 * scrobblesPerMonth gives month numbers only, in order from the window's first month; a rolling
 * window can hold the same month twice (last365days), so each gets its year: YYYY-MM.
 */
export function monthSeries(months: readonly { month: number; count: number }[], startDate: string, timeZone: string): { month: string; count: number }[] {
  let year = Number(localDate(new Date(startDate), knownTimeZone(timeZone) ?? 'UTC').slice(0, 4));
  let previous = 0;
  return months.map(({ month, count }) => {
    if (month < previous) year += 1;
    previous = month;
    return { month: `${year}-${String(month).padStart(2, '0')}`, count };
  });
}

/** The local days in `timeZone` a Wrapped window [startDate, endDate) touches, up to today: the days of its plays-per-day chart. */
export function localDayRange(startDate: string, endDate: string, timeZone: string, now = new Date()): { start: string; end: string } {
  const zone = knownTimeZone(timeZone) ?? 'UTC';
  const end = addDays(localDate(new Date(Date.parse(endDate) - 1), zone), 1);
  const tomorrow = addDays(localDate(now, zone), 1);
  // biome-ignore lint/complexity/useMathMinMax: ISO dates compare as strings; Math.min would make them numbers
  return { start: localDate(new Date(startDate), zone), end: end < tomorrow ? end : tomorrow };
}

/** The per-day chart in words: its days' zone, span and total. */
export function dayChartLabel(days: readonly DayCount[], timeZone: string): string {
  const total = days.reduce((sum, day) => sum + day.count, 0);
  if (days.length === 0) return `No days to chart in ${timeZone}.`;
  return `Plays per day in ${timeZone} from ${formatDay(days[0]!.date)} to ${formatDay(days[days.length - 1]!.date)}, ${total.toLocaleString()} in all.`;
}
