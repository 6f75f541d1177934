/**
 * A user's plays as ListenBrainz export files: one JSON Lines file per UTC month
 * (`listens/<year>/<month>.jsonl`, as ListenBrainz's own export lays them out), each line a
 * listen as ListenBrainz shapes it, so the archive imports into Earshot or ListenBrainz again.
 * Read in keyset pages, so memory stays flat however long the history.
 */
import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { listenOf, playsQuery, type PlayRow } from '../scrobbling/listen-json.ts';

/**
 * A play as an export line: ListenBrainz's listen, whose `listened_at` is whole seconds (LB
 * requires an integer), with the exact time in `additional_info.listened_at_iso` (LB keeps
 * unknown additional_info fields), which Earshot's reader prefers: plays keep their milliseconds
 * through a round trip, and two plays of a song within one second stay two.
 */
function exportLine(row: PlayRow, handle: string): string {
  const listen = listenOf(row, handle);
  const info = listen.track_metadata.additional_info as Record<string, unknown>;
  const exact = { ...listen.track_metadata, additional_info: { ...info, listened_at_iso: row.listened_at.toISOString() } };
  return `${JSON.stringify({ ...listen, track_metadata: exact })}\n`;
}

/** Plays read per query. */
const PAGE = 1000;

/** The first instant of each UTC month the user has plays in, oldest first. */
export async function playMonths(db: Database, userId: string): Promise<Date[]> {
  // date_trunc with a zone (PostgreSQL 12+) makes the months UTC whatever the session's time zone.
  const month = sql<Date>`date_trunc('month', listened_at, 'UTC')`;
  const rows = await db.selectFrom('scrobbles').select(month.as('month')).where('user_id', '=', userId).groupBy(month).orderBy(month).execute();
  return rows.map((row) => new Date(row.month));
}

export const monthPath = (month: Date) => `listens/${month.getUTCFullYear()}/${month.getUTCMonth() + 1}.jsonl`;

/** The month's plays as JSON Lines, oldest first. */
export async function* monthLines(db: Database, user: { id: string; handle: string }, month: Date): AsyncGenerator<string> {
  const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  let after: { listenedAt: Date; id: string } | undefined;
  for (;;) {
    const rows = await playsQuery(db, user.id)
      .where('s.listened_at', '>=', month)
      .where('s.listened_at', '<', end)
      .$if(after !== undefined, (query) =>
        query.where((eb) =>
          eb.or([eb('s.listened_at', '>', after!.listenedAt), eb.and([eb('s.listened_at', '=', after!.listenedAt), eb('s.id', '>', after!.id)])]),
        ),
      )
      .orderBy('s.listened_at')
      .orderBy('s.id')
      .limit(PAGE)
      .execute();
    if (rows.length > 0) yield rows.map((row) => exportLine(row, user.handle)).join('');
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { listenedAt: last.listened_at, id: last.id };
  }
}
