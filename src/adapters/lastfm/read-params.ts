import { findUserByActor, type User } from '../../core/auth/index.ts';
import { ALL_TIME, type PlaysWindow } from '../../core/stats/rollups/reads.ts';
import { invalidParameters, notFound } from './errors.ts';
import type { MethodCall } from './method.ts';
import { InvalidParameter, optionalCount, optionalText, type Params } from './params.ts';

/** The parameters Last.fm's read methods share: whose data, which page, which span of time. */

/** `user` (a handle or DID), else the user of the signed session sent along; error 6 "User not found" otherwise. */
export async function namedUser({ ctx, params, session }: MethodCall<'apiKey'>, name = 'user'): Promise<User> {
  const actor = optionalText(params, name) ?? session?.handle;
  if (!actor) throw new InvalidParameter(`${name} is required`);
  const user = await findUserByActor(ctx.db, actor);
  if (!user) throw notFound('User not found');
  return user;
}

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

/** `limit` (default 50, at most `max`) and `page` (from 1). */
export function paging(params: Params, max: number, defaultLimit = 50): Paging {
  const limit = optionalCount(params, 'limit', '', max) ?? defaultLimit;
  const page = optionalCount(params, 'page') ?? 1;
  if (limit < 1 || page < 1) throw new InvalidParameter('limit and page must be at least 1');
  return { page, limit, offset: (page - 1) * limit };
}

/** A UNIX time in seconds, or undefined when absent. */
export function optionalUnixTime(params: Params, name: string): Date | undefined {
  const raw = optionalText(params, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,11}$/.test(raw)) throw new InvalidParameter(`${name} must be a UNIX timestamp in seconds`);
  return new Date(Number(raw) * 1000);
}

/** Last.fm's periods: rolling windows ending now, in days or calendar months (UTC). */
const PERIODS: Record<string, { days: number } | { months: number }> = {
  '7day': { days: 7 },
  '1month': { months: 1 },
  '3month': { months: 3 },
  '6month': { months: 6 },
  '12month': { months: 12 },
};

/** `period`: overall (the default) or one of PERIODS; anything else is error 6. */
export function periodWindow(params: Params, now = new Date()): { period: string; window: PlaysWindow } {
  const period = optionalText(params, 'period') ?? 'overall';
  if (period === 'overall') return { period, window: ALL_TIME };
  const span = PERIODS[period];
  if (!span) throw invalidParameters(`period must be overall, ${Object.keys(PERIODS).join(', ')}`);
  // The next whole second: a play stored this very second still counts.
  const end = new Date(Math.floor(now.getTime() / 1000) * 1000 + 1000);
  const start = new Date(end);
  if ('days' in span) start.setUTCDate(start.getUTCDate() - span.days);
  else start.setUTCMonth(start.getUTCMonth() - span.months);
  return { period, window: { start, end } };
}
