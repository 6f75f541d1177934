/**
 * An artist's, album's or song's page statistics (getEntityStats): its plays per UTC month by
 * everyone and by the viewer, its rank among its kind each month, its first and last plays and
 * its top listeners. Everyone's part is a heavy read shared by all viewers; the viewer's part is
 * one user's few rows.
 */
import { sql } from 'kysely';
import { notFound } from '../../toolkit/errors.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import { heavyRead } from '../../toolkit/db/heavy-read.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { monthlyTrackPlays } from './rollups/reads.ts';
import type { EntityKind, EntityStats } from './schemas.ts';

export const DEFAULT_MONTHS = 24;
export const MAX_MONTHS = 120;
const TOP_LISTENERS = 10;

export interface EntityStatsRequest {
  kind: EntityKind;
  /** The entity's current id (the caller follows merges: src/core/catalog/references.ts). */
  id: string;
  months?: number | undefined;
  viewerId: string | null;
}

/** The tracks column that names an entity of each kind; for songs the track itself. */
const ENTITY_COLUMN = { artist: 't.artist_id', album: 't.album_id', song: 't.id' } as const;
const TABLE = { artist: 'artists', album: 'albums', song: 'tracks' } as const;

/** The window's month starts: `count` whole UTC months ending with the current one. */
export function monthStarts(count: number, now = new Date()): Date[] {
  return Array.from({ length: count }, (_, index) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - count + 1 + index, 1)));
}

const monthKey = (start: Date) => start.toISOString().slice(0, 7);

export async function entityStats(db: Database, request: EntityStatsRequest): Promise<EntityStats> {
  const { kind, id, viewerId } = request;
  const count = request.months ?? DEFAULT_MONTHS;
  const exists = await db.selectFrom(TABLE[kind]).select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound(`no ${kind} ${id}`);

  const starts = monthStarts(count);
  const from = starts[0]!;
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + count, 1));
  const everyone = await heavyRead(db, JSON.stringify(['entity', kind, id, monthKey(from), count]), () => everyonesStats(db, kind, id, from, to));
  const viewer = viewerId === null ? null : await viewersStats(db, kind, id, viewerId, from, to);

  const byMonth = new Map(everyone.months.map((row) => [row.month, row]));
  return {
    kind,
    id,
    months: starts.map((start) => {
      const month = monthKey(start);
      const row = byMonth.get(month);
      return {
        month,
        plays: row?.plays ?? 0,
        ...(viewer && { viewerPlays: viewer.months.get(month) ?? 0 }),
        ...(row && { rank: row.rank }),
      };
    }),
    ...(everyone.first && { firstPlay: everyone.first }),
    ...(everyone.last && { lastPlay: everyone.last }),
    ...(viewer?.first && { viewerFirstPlay: viewer.first }),
    ...(viewer?.last && { viewerLastPlay: viewer.last }),
    topListeners: everyone.topListeners,
  };
}

/**
 * Plays per month of every entity of the kind, ranked within each month (rank(): ties share a
 * rank, the next one skips), kept for this entity. Every entity's count is needed for the rank,
 * so this reads the window's whole monthly rollup: hence heavy, and bounded by MAX_MONTHS.
 */
async function monthlyRanks(db: Database, kind: EntityKind, id: string, from: Date, to: Date) {
  const entity = sql.ref(ENTITY_COLUMN[kind]);
  const { rows } = await sql<{ month: string; plays: number; rank: number }>`
    select month, plays, rank from (
      select m.month, ${entity} as entity, sum(m.plays)::int as plays, rank() over (partition by m.month order by sum(m.plays) desc)::int as rank
      from (${monthlyTrackPlays(null, from, to)}) m join tracks t on t.id = m.track_id
      where ${entity} is not null
      group by m.month, ${entity}
    ) ranked where entity = ${id}`.execute(db);
  return rows;
}

/** The plays of the entity's tracks, optionally one user's. */
function playsOf(db: Database, kind: EntityKind, id: string, userId: string | null) {
  let plays = db
    .selectFrom('scrobbles as s')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .where(sql.ref(kind === 'song' ? 's.track_id' : ENTITY_COLUMN[kind]), '=', id);
  if (userId !== null) plays = plays.where('s.user_id', '=', userId);
  return plays;
}

/**
 * The first or last play. There is no index on (track_id, listened_at): the planner reads the
 * entity's plays through scrobbles_track_user_idx (or a user's history through
 * scrobbles_user_time_idx) and takes the extreme, a cost in line with the plays counted for the
 * page's totals.
 */
async function extremePlay(db: Database, kind: EntityKind, id: string, userId: string | null, direction: 'asc' | 'desc') {
  const row = await playsOf(db, kind, id, userId)
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.listened_at', 't.id as song_id', 't.title', 't.uri', 'u.did', 'u.handle', 'u.display_name', 'u.avatar'])
    .orderBy('s.listened_at', direction)
    .orderBy('s.id', direction)
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    playedAt: isoDateTime(row.listened_at),
    songId: row.song_id,
    songUri: row.uri,
    songTitle: row.title,
    listener: listener(row),
  };
}

const listener = (row: { did: string; handle: string; display_name: string | null; avatar: string | null }) => ({
  did: row.did,
  handle: row.handle,
  ...(row.display_name && { displayName: row.display_name }),
  ...(row.avatar && { avatar: row.avatar }),
});

/**
 * All time, from the plays themselves rather than the rollups: counted per user from
 * scrobbles_track_user_idx alone, as the page's play and listener counts are; the rollups are
 * keyed by user first and would be read whole to find one track's listeners.
 */
async function topListeners(db: Database, kind: EntityKind, id: string) {
  const rows = await playsOf(db, kind, id, null)
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(({ fn }) => ['u.did', 'u.handle', 'u.display_name', 'u.avatar', fn.countAll<string>().as('plays')])
    .groupBy(['u.id', 'u.did', 'u.handle', 'u.display_name', 'u.avatar'])
    .orderBy('plays', 'desc')
    .orderBy('u.handle')
    .limit(TOP_LISTENERS)
    .execute();
  return rows.map((row) => ({ ...listener(row), plays: Number(row.plays) }));
}

async function everyonesStats(db: Database, kind: EntityKind, id: string, from: Date, to: Date) {
  const [months, first, last, top] = await Promise.all([
    monthlyRanks(db, kind, id, from, to),
    extremePlay(db, kind, id, null, 'asc'),
    extremePlay(db, kind, id, null, 'desc'),
    topListeners(db, kind, id),
  ]);
  return { months, first, last, topListeners: top };
}

async function viewersStats(db: Database, kind: EntityKind, id: string, viewerId: string, from: Date, to: Date) {
  const entity = sql.ref(ENTITY_COLUMN[kind]);
  const [{ rows }, first, last] = await Promise.all([
    sql<{ month: string; plays: number }>`
      select m.month, sum(m.plays)::int as plays from (${monthlyTrackPlays(viewerId, from, to)}) m join tracks t on t.id = m.track_id
      where ${entity} = ${id} group by m.month`.execute(db),
    extremePlay(db, kind, id, viewerId, 'asc'),
    extremePlay(db, kind, id, viewerId, 'desc'),
  ]);
  const own = ({ listener: _, ...play }: NonNullable<typeof first>) => play;
  return { months: new Map(rows.map((row) => [row.month, row.plays])), first: first && own(first), last: last && own(last) };
}
