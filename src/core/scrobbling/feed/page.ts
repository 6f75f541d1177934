import { sql, type SqlBool } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import type { Scrobble } from '../schemas.ts';
import { selectScrobbleViews } from '../view.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

/** Whose scrobbles a page shows. */
export type ScrobbleScope = { kind: 'everyone' } | { kind: 'user'; userId: string } | { kind: 'followedBy'; userId: string };

export interface ScrobblePage {
  scrobbles: Scrobble[];
  /** Absent on the last page. */
  cursor?: string;
}

/** Rows of `scope`, with `userColumn` naming the row's user (scrobbles here, now_playing elsewhere). */
export function scopeCondition(scope: ScrobbleScope, userColumn = 's.user_id') {
  const user = sql.ref(userColumn);
  switch (scope.kind) {
    case 'everyone':
      return sql<SqlBool>`true`;
    case 'user':
      return sql<SqlBool>`${user} = ${scope.userId}`;
    case 'followedBy':
      return sql<SqlBool>`${user} in (select subject_id from follows where user_id = ${scope.userId})`;
  }
}

/**
 * One page of scrobbles, newest first. Paging is by keyset over
 * (listened_at, id), the order of the feed indexes: a cursor names the last
 * scrobble shown, so plays recorded between requests never shift later pages.
 */
export async function scrobblePage(
  db: Database,
  viewerId: string | null,
  scope: ScrobbleScope,
  page: { limit: number; cursor?: string | undefined },
): Promise<ScrobblePage> {
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
  const rows = await selectScrobbleViews(db, viewerId, (query) =>
    query
      .where(scopeCondition(scope))
      .$if(after !== null, (q) => q.where(sql<SqlBool>`(s.listened_at, s.id) < (${after!.listenedAt}::timestamptz, ${after!.id}::uuid)`))
      .orderBy('s.listened_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(page.limit + 1),
  );
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    scrobbles: shown.map((row) => row.scrobble),
    ...(rows.length > page.limit && last ? { cursor: encodeCursor(last.position) } : {}),
  };
}
