import type { Database } from '../../toolkit/db/index.ts';
import { malformedRequest } from './errors.ts';
import type { Fields } from './fields.ts';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
const DAY = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

/** A page of a user's scrobbles as Maloja lists them (`/apis/mlj_1/scrobbles`). */
export interface ScrobblePage {
  page: number;
  perpage: number;
  from: Date | undefined;
  /** Exclusive: the day after `until`. */
  until: Date | undefined;
}

function whole(fields: Fields, name: string, fallback: number, max: number): number {
  const value = fields.get(name);
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,7}$/.test(value) || Number(value) > max) throw malformedRequest(`${name} must be a whole number up to ${max}`);
  return Number(value);
}

/** A `YYYY/MM/DD` day (the form multi-scrobbler sends) as its UTC midnight, `daysLater` days on. */
function day(fields: Fields, name: string, daysLater = 0): Date | undefined {
  const value = fields.get(name);
  if (value === undefined || value === '') return undefined;
  const [, year, month, date] = (typeof value === 'string' && DAY.exec(value)) || [];
  const midnight = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  if (year === undefined || midnight.getUTCDate() !== Number(date) || midnight.getUTCMonth() !== Number(month) - 1) {
    throw malformedRequest(`${name} must be a day written YYYY/MM/DD`);
  }
  return new Date(midnight.getTime() + daysLater * 86_400_000);
}

export function parseScrobblePage(fields: Fields): ScrobblePage {
  return {
    page: whole(fields, 'page', 0, 1_000_000),
    perpage: whole(fields, 'perpage', DEFAULT_PER_PAGE, MAX_PER_PAGE),
    from: day(fields, 'from') ?? day(fields, 'since'),
    until: day(fields, 'until', 1) ?? day(fields, 'to', 1),
  };
}

/** The page's scrobbles, newest first, in Maloja's shape, and whether more follow. */
export async function listScrobbles(db: Database, userId: string, page: ScrobblePage) {
  let query = db
    .selectFrom('scrobbles as s')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .select(['s.listened_at', 't.title', 't.artist', 't.album', 't.album_artist', 't.duration'])
    .where('s.user_id', '=', userId);
  if (page.from) query = query.where('s.listened_at', '>=', page.from);
  if (page.until) query = query.where('s.listened_at', '<', page.until);
  const rows = await query
    .orderBy('s.listened_at', 'desc')
    .orderBy('s.id', 'desc')
    .offset(page.page * page.perpage)
    .limit(page.perpage + 1)
    .execute();
  const list = rows.slice(0, page.perpage).map((row) => ({
    time: Math.floor(row.listened_at.getTime() / 1000),
    track: {
      artists: [row.artist],
      title: row.title,
      album: row.album ? { albumtitle: row.album, artists: row.album_artist ? [row.album_artist] : [] } : null,
      length: row.duration === null ? null : Math.round(row.duration / 1000),
    },
    duration: null,
  }));
  return { list, more: rows.length > page.perpage };
}
