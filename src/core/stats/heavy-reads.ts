/**
 * The statistics callers ask for (Wrapped, plays per day, the listening clock). Each is a heavy
 * read: identical requests share one answer while nothing was written (heavy-read.ts).
 */
import { invalidRequest } from '../../toolkit/errors.ts';
import { heavyRead } from '../../toolkit/db/heavy-read.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { userFromActorParam } from '../auth/index.ts';
import { scrobblesPerDay } from './chart.ts';
import { listeningClock } from './clock.ts';
import type { PlaysWindow } from './rollups/reads.ts';
import { chooseTimeZone } from './time-zone.ts';
import { localDaysWindow, statsWindow, type Period } from './window.ts';
import { wrappedFor, type WrappedRequest } from './wrapped.ts';

/**
 * The plays a chart or clock counts, with days and hours in the time zone given, else the user's
 * (else UTC for everyone): a period's window exactly as getWrapped counts it, or the local days
 * from startDate up to (not including) endDate.
 */
export interface DaysRequest {
  startDate?: string | undefined;
  endDate?: string | undefined;
  period?: Period | undefined;
  year?: number | undefined;
  timeZone?: string | undefined;
}

/**
 * A period goes through statsWindow, the one rule getWrapped uses too, so a profile's figures and
 * its chart and clock count the same plays (a rolling window ends now, not at the next midnight).
 */
function daysWindow(db: Database, request: DaysRequest, timeZone: string): Promise<PlaysWindow> {
  if (request.period !== undefined) {
    if (request.startDate !== undefined || request.endDate !== undefined) throw invalidRequest('give either period or startDate and endDate, not both');
    return statsWindow(db, request.period, request.year, timeZone);
  }
  if (request.startDate && request.endDate && request.startDate >= request.endDate) throw invalidRequest('endDate must be after startDate');
  return localDaysWindow(db, request.startDate, request.endDate, timeZone);
}

const daysKey = (kind: string, request: DaysRequest & { actor?: string | undefined }) =>
  JSON.stringify([kind, request.actor, request.startDate, request.endDate, request.period, request.year, request.timeZone]);

export function readWrapped(db: Database, request: WrappedRequest) {
  const key = JSON.stringify(['wrapped', request.actor, request.period, request.year, request.timeZone]);
  return heavyRead(db, key, () => wrappedFor(db, request));
}

/** Plays per day of one user (`actor`: DID or handle) or, without one, everyone. */
export function readScrobblesChart(db: Database, request: DaysRequest & { actor?: string | undefined }) {
  return heavyRead(db, daysKey('chart', request), async () => {
    const user = request.actor === undefined ? null : await userFromActorParam(db, request.actor);
    const timeZone = chooseTimeZone(request.timeZone, user?.timezone);
    return { chart: await scrobblesPerDay(db, { userId: user?.id, window: await daysWindow(db, request, timeZone), timeZone }) };
  });
}

/** A user's plays by local weekday and hour, with the time zone they were counted in. */
export function readListeningClock(db: Database, request: DaysRequest & { actor: string }) {
  return heavyRead(db, daysKey('clock', request), async () => {
    const user = await userFromActorParam(db, request.actor);
    const timeZone = chooseTimeZone(request.timeZone, user.timezone);
    return { clock: await listeningClock(db, { userId: user.id, window: await daysWindow(db, request, timeZone), timeZone }), timeZone };
  });
}
