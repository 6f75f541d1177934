import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';

/**
 * As if `ms` had passed since the user's last playback report (playback.ts): the session's clock
 * moves back by as much, since a test cannot wait minutes for a song to play. Its start stays, so
 * a scrobble sent meanwhile keeps the play's time.
 */
export async function elapsePlayback(db: Database, userId: string, ms: number): Promise<void> {
  await sql`update now_playing set submitted = jsonb_set(submitted, '{playback,atMs}', to_jsonb((submitted #>> '{playback,atMs}')::float8 - ${ms}))
    where user_id = ${userId}`.execute(db);
}
