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
import { chooseTimeZone } from './time-zone.ts';
import { wrappedFor, type WrappedRequest } from './wrapped.ts';

/** Local days from startDate up to (not including) endDate, in the time zone given, else the user's (else UTC for everyone). */
export interface DaysRequest {
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZone?: string | undefined;
}

function checkDays(request: DaysRequest): void {
  if (request.startDate && request.endDate && request.startDate >= request.endDate) throw invalidRequest('endDate must be after startDate');
}

export function readWrapped(db: Database, request: WrappedRequest) {
  const key = JSON.stringify(['wrapped', request.actor, request.period, request.year, request.timeZone]);
  return heavyRead(db, key, () => wrappedFor(db, request));
}

/** Plays per day of one user (`actor`: DID or handle) or, without one, everyone. */
export function readScrobblesChart(db: Database, request: DaysRequest & { actor?: string | undefined }) {
  const key = JSON.stringify(['chart', request.actor, request.startDate, request.endDate, request.timeZone]);
  return heavyRead(db, key, async () => {
    const user = request.actor === undefined ? null : await userFromActorParam(db, request.actor);
    checkDays(request);
    const timeZone = chooseTimeZone(request.timeZone, user?.timezone);
    return { chart: await scrobblesPerDay(db, { userId: user?.id, startDate: request.startDate, endDate: request.endDate, timeZone }) };
  });
}

/** A user's plays by local weekday and hour, with the time zone they were counted in. */
export function readListeningClock(db: Database, request: DaysRequest & { actor: string }) {
  const key = JSON.stringify(['clock', request.actor, request.startDate, request.endDate, request.timeZone]);
  return heavyRead(db, key, async () => {
    const user = await userFromActorParam(db, request.actor);
    checkDays(request);
    const timeZone = chooseTimeZone(request.timeZone, user.timezone);
    return { clock: await listeningClock(db, { userId: user.id, startDate: request.startDate, endDate: request.endDate, timeZone }), timeZone };
  });
}
