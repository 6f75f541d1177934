/**
 * The profile's statistics queries, declared once for the page and its lazily loaded statistics
 * chunk: the page starts the default period's queries together with the profile call (they need
 * only the handle and a time zone), so neither the profile's answer nor the chart chunk's download
 * delays them; the chunk then finds them in the cache, answered or in flight.
 */
import { keepPreviousData, queryOptions, usePrefetchQuery } from '@tanstack/react-query';
import { query } from '../api/xrpc.ts';
import type { SignedIn } from '../api/session.ts';
import { browserTimeZone, localDate, type ProfilePeriod, type WrappedPeriod } from './stats.ts';

export const DEFAULT_PERIOD = 'last30days' satisfies ProfilePeriod;

/** A period as the chart and clock ask for it: the server counts the very window getWrapped counts for it; all time without one. */
export interface PeriodChoice {
  period: ProfilePeriod;
  /** The calendar year of period=year; ignored for the others. */
  year: number;
}

const periodParams = ({ period, year }: PeriodChoice) => (period === 'all' ? {} : { period, year: period === 'year' ? year : undefined });
const periodKey = ({ period, year }: PeriodChoice) => [period, period === 'year' ? year : null];

export const wrappedQuery = (handle: string, period: WrappedPeriod, year: number, timeZone: string) =>
  queryOptions({
    queryKey: ['wrapped', handle, period, period === 'year' ? year : null, timeZone],
    queryFn: () => query('app.svc.stats.getWrapped', { did: handle, period, year: period === 'year' ? year : undefined, tz: timeZone }),
    placeholderData: keepPreviousData,
  });

export const chartQuery = (handle: string, choice: PeriodChoice, timeZone: string) =>
  queryOptions({
    queryKey: ['scrobbles-chart', handle, ...periodKey(choice), timeZone],
    queryFn: () => query('app.svc.charts.getScrobblesChart', { did: handle, ...periodParams(choice), tz: timeZone }),
    placeholderData: keepPreviousData,
  });

export const clockQuery = (handle: string, choice: PeriodChoice, timeZone: string) =>
  queryOptions({
    queryKey: ['listening-clock', handle, ...periodKey(choice), timeZone],
    queryFn: () => query('app.svc.stats.getListeningClock', { did: handle, ...periodParams(choice), tz: timeZone }),
    placeholderData: keepPreviousData,
  });

/** The calendar year the year picker starts at: the current one in the zone. */
export const currentYear = (timeZone: string) => Number(localDate(new Date(), timeZone).slice(0, 4));

/** Starts the statistics the profile shows first (the default period's), before anything else answers. */
export function usePrefetchProfileStats(handle: string, timeZone: string): void {
  const choice: PeriodChoice = { period: DEFAULT_PERIOD, year: currentYear(timeZone) };
  usePrefetchQuery(wrappedQuery(handle, DEFAULT_PERIOD, choice.year, timeZone));
  usePrefetchQuery(chartQuery(handle, choice, timeZone));
  usePrefetchQuery(clockQuery(handle, choice, timeZone));
}

const zoneKey = (did: string) => `earshot.timeZone.${did}`;

/**
 * The zone statistics are counted in, before the profile answers: another user's are counted in
 * the viewer's browser zone; one's own in one's own zone, remembered from the last visit (the
 * browser's until then). When the profile then names another zone, the statistics follow it.
 */
export function statsTimeZone(session: SignedIn | null, handle: string, profileZone: string | undefined): string {
  if (profileZone) return profileZone;
  const remembered = session?.handle === handle ? localStorage.getItem(zoneKey(session.did)) : null;
  return remembered ?? browserTimeZone();
}

export function rememberTimeZone(did: string, zone: string): void {
  localStorage.setItem(zoneKey(did), zone);
}
