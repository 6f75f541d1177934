import { sql, type RawBuilder } from 'kysely';
import { quarterSpan, windowPieces, type Piece } from './pieces.ts';

/**
 * What statistics read instead of the raw history: a window's plays per track, and its plays per
 * quarter hour, from the rollups plus the changes still queued for the fold (so a play counts the
 * moment it is stored) plus raw plays at the window's edges. Raw SQL: each is a union of weighted
 * range joins over a VALUES list of pieces, which the query builder cannot say more plainly.
 */
export interface PlaysWindow {
  start: Date;
  end: Date;
}

/** All time: wider than any play. */
export const ALL_TIME: PlaysWindow = { start: new Date(Date.UTC(1000, 0, 1)), end: new Date(Date.UTC(9999, 0, 1)) };

function piecesTable(pieces: Piece[]) {
  const rows = pieces.map((piece) => sql`(${piece.source}::text, ${piece.from.toISOString()}::timestamptz, ${piece.to.toISOString()}::timestamptz, ${piece.weight}::int)`);
  return sql`(values ${sql.join(rows)}) p (source, from_at, to_at, weight)`;
}

const inPiece = (column: RawBuilder<unknown>) => sql`${column} >= p.from_at and ${column} < p.to_at`;

/** (track_id, plays) for each track `userId` played in the window, plays > 0. */
export function trackPlays(userId: string, window: PlaysWindow): RawBuilder<{ track_id: string; plays: number }> {
  const pieces = windowPieces(window.start, window.end);
  const rolled = pieces.filter((piece) => piece.source !== 'raw');
  const raw = pieces.filter((piece) => piece.source === 'raw');
  const branches = [
    ...(rolled.length > 0
      ? [
          sql`select c.track_id, c.plays * p.weight as plays from ${piecesTable(rolled)}
              join stats_track_counts c on c.user_id = ${userId} and c.grain = p.source::"char" and ${inPiece(sql`c.period_start`)}`,
          sql`select q.track_id, q.delta * p.weight from ${piecesTable(rolled)}
              join stats_queue q on q.user_id = ${userId} and ${inPiece(sql`q.listened_at`)}`,
        ]
      : []),
    ...(raw.length > 0
      ? [sql`select s.track_id, p.weight from ${piecesTable(raw)} join scrobbles s on s.user_id = ${userId} and ${inPiece(sql`s.listened_at`)}`]
      : []),
  ];
  if (branches.length === 0) return sql`select null::uuid as track_id, 0 as plays where false`;
  return sql`select track_id, sum(plays)::int as plays from (${sql.join(branches, sql` union all `)}) counted group by track_id having sum(plays) > 0`;
}

/**
 * (at, plays) per quarter hour with plays in the window (at: the quarter's start, or a raw play's
 * own time at the edges), for one user or, with `userId` null, everyone. Any zone offset by a
 * multiple of 15 minutes puts a whole quarter in one local hour and day.
 */
export function quarterPlays(userId: string | null, window: PlaysWindow): RawBuilder<{ at: Date; plays: number }> {
  const span = quarterSpan(window.start, window.end);
  const ofUser = (column: RawBuilder<unknown>) => (userId === null ? sql`true` : sql`${column} = ${userId}`);
  const [from, to] = [span.from.toISOString(), span.to.toISOString()];
  const branches = [
    ...(span.from < span.to
      ? [
          sql`select h.hour + v.i * interval '15 minutes' as at, v.plays
              from stats_hours h cross join lateral (values (0, h.q0), (1, h.q1), (2, h.q2), (3, h.q3)) v (i, plays)
              where ${ofUser(sql`h.user_id`)} and h.hour >= date_trunc('hour', ${from}::timestamptz, 'UTC') and h.hour < ${to}::timestamptz and v.plays <> 0
                and h.hour + v.i * interval '15 minutes' >= ${from}::timestamptz and h.hour + v.i * interval '15 minutes' < ${to}::timestamptz`,
          sql`select q.listened_at, q.delta from stats_queue q where ${ofUser(sql`q.user_id`)} and q.listened_at >= ${from}::timestamptz and q.listened_at < ${to}::timestamptz`,
        ]
      : []),
    ...(span.raw.length > 0
      ? [sql`select s.listened_at, 1 from ${piecesTable(span.raw)} join scrobbles s on ${ofUser(sql`s.user_id`)} and ${inPiece(sql`s.listened_at`)}`]
      : []),
  ];
  if (branches.length === 0) return sql`select null::timestamptz as at, 0 as plays where false`;
  return sql`select at, plays from (${sql.join(branches, sql` union all `)}) counted`;
}
