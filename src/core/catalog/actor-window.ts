import type { Database } from '../../toolkit/db/index.ts';
import { ALL_TIME, type PlaysWindow } from '../stats/rollups/reads.ts';
import { chooseTimeZone } from '../stats/time-zone.ts';
import { statsWindow, type Period } from '../stats/window.ts';

export interface ActorPeriod {
  /** All time when absent. */
  period?: 'all' | Period | undefined;
  /** The calendar year for period=year; the current one when absent. */
  year?: number | undefined;
  /** The time zone the period's days are counted in; the user's when absent. */
  tz?: string | undefined;
}

/** The plays a user's top list counts: all time, or the period's window in the requested zone (else the user's). */
export async function actorWindow(db: Database, request: ActorPeriod, user: { timezone: string }): Promise<PlaysWindow> {
  if (request.period === undefined || request.period === 'all') return ALL_TIME;
  return statsWindow(db, request.period, request.year, chooseTimeZone(request.tz, user.timezone));
}
