import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { isoDateTime } from '../../../toolkit/schemas.ts';
import { scopeCondition, type ScrobbleScope } from './page.ts';

export interface NowPlayingView {
  handle: string;
  did: string;
  displayName?: string;
  avatar?: string;
  title: string;
  artist: string;
  album?: string;
  trackId: string;
  since: string;
}

/**
 * What the users in `scope` are playing now, newest first. An entry lives until
 * its expires_at (the track's length after it started), so stopped players drop out by themselves.
 */
export async function nowPlayingIn(db: Database, scope: ScrobbleScope, limit: number): Promise<NowPlayingView[]> {
  const rows = await db
    .selectFrom('now_playing as np')
    .innerJoin('users as u', 'u.id', 'np.user_id')
    .innerJoin('tracks as t', 't.id', 'np.track_id')
    .select(['u.handle', 'u.did', 'u.display_name', 'u.avatar', 't.id as track_id', 't.title', 't.artist', 't.album', 'np.started_at'])
    .where('np.expires_at', '>', sql<Date>`now()`)
    .where(scopeCondition(scope, 'np.user_id'))
    .orderBy('np.started_at', 'desc')
    .orderBy('u.handle')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    handle: row.handle,
    did: row.did,
    ...(row.display_name && { displayName: row.display_name }),
    ...(row.avatar && { avatar: row.avatar }),
    title: row.title,
    artist: row.artist,
    ...(row.album && { album: row.album }),
    trackId: row.track_id,
    since: isoDateTime(row.started_at),
  }));
}
