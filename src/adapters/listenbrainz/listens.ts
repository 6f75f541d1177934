import { invalidRequest } from '../../toolkit/errors.ts';
import type { AppContext } from '../../core/context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { catalogTrackQuery, listenOf, playsQuery, toSeconds, trackMetadata, type JsonObject } from '../../core/scrobbling/listen-json.ts';

/** ListenBrainz's page sizes for listens (api_tools.DEFAULT_ITEMS_PER_GET, MAX_ITEMS_PER_GET). */
export const DEFAULT_ITEMS_PER_GET = 25;
export const MAX_ITEMS_PER_GET = 1000;

/**
 * Which listens to return, newest first: before `maxTs`, just after `minTs`, or with both
 * strictly between them (unix seconds, exclusive).
 */
export interface ListensWindow {
  count: number;
  minTs?: number | undefined;
  maxTs?: number | undefined;
}

export type QueryValue = string | string[] | undefined;

/** A repeated query parameter counts by its first value. */
export const firstQueryValue = (value: QueryValue) => (Array.isArray(value) ? value[0] : value);

function integerParam(value: QueryValue, invalid: (text: string) => string): number | undefined {
  const text = firstQueryValue(value)?.trim();
  if (!text) return undefined;
  if (!/^[+-]?\d{1,11}$/.test(text)) throw invalidRequest(invalid(text));
  return Number(text);
}

/** A `count` or `offset` as ListenBrainz reads them: absent is the default, anything but a whole number >= 0 is 400. */
export function nonNegativeParam(query: Record<string, QueryValue>, name: string, fallback: number): number {
  const invalid = () => `'${name}' should be a non-negative integer`;
  const value = integerParam(query[name], invalid) ?? fallback;
  if (value < 0) throw invalidRequest(invalid());
  return value;
}

/** An integer query argument, 400 naming it as ListenBrainz does otherwise. */
export const integerArgument = (name: string, value: QueryValue) => integerParam(value, (text) => `Invalid ${name} argument: ${text}`);

/** Reads `count`, `min_ts` and `max_ts`; a count above the maximum is capped, not refused. */
export function listensWindowFrom(query: Record<string, QueryValue>): ListensWindow {
  const count = nonNegativeParam(query, 'count', DEFAULT_ITEMS_PER_GET);
  const minTs = integerArgument('min_ts', query.min_ts);
  const maxTs = integerArgument('max_ts', query.max_ts);
  return { count: Math.min(count, MAX_ITEMS_PER_GET), minTs, maxTs };
}

/** A user's listens in ListenBrainz's shape, newest first. */
export async function listensPage(db: Database, user: { id: string; handle: string }, window: ListensWindow) {
  // After min_ts alone ListenBrainz takes the listens closest to it; within a window, the newest.
  const ascending = window.minTs !== undefined && window.maxTs === undefined;
  const rows = await playsQuery(db, user.id)
    .$if(window.maxTs !== undefined, (query) => query.where('s.listened_at', '<', new Date(window.maxTs! * 1000)))
    .$if(window.minTs !== undefined, (query) => query.where('s.listened_at', '>', new Date(window.minTs! * 1000)))
    .orderBy('s.listened_at', ascending ? 'asc' : 'desc')
    .orderBy('s.id', ascending ? 'asc' : 'desc')
    .limit(window.count)
    .execute();
  // Still answered newest first.
  if (ascending) rows.reverse();
  return rows.map((row) => listenOf(row, user.handle));
}

/** Unix seconds of the user's newest and oldest listens; 0 when there are none. */
export async function listenTimestamps(db: Database, userId: string): Promise<{ latest: number; oldest: number }> {
  const row = await db
    .selectFrom('scrobbles')
    .select((eb) => [eb.fn.max('listened_at').as('latest'), eb.fn.min('listened_at').as('oldest')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { latest: row?.latest ? toSeconds(row.latest) : 0, oldest: row?.oldest ? toSeconds(row.oldest) : 0 };
}

export async function listenCount(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('scrobbles')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The user's current track as a ListenBrainz playing-now listen, if any. */
export async function playingNow(ctx: AppContext, userId: string): Promise<JsonObject | null> {
  const current = await currentNowPlaying(ctx, userId);
  if (!current) return null;
  const row = await catalogTrackQuery(ctx.db).where('t.id', '=', current.trackId).executeTakeFirst();
  return row ? { playing_now: true, track_metadata: trackMetadata(row, current.submitted) } : null;
}
