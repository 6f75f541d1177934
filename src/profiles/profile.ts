import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import type { User } from '../auth/index.ts';

export interface ProfileCounts {
  scrobblesCount: number;
  artistsCount: number;
  songsCount: number;
  followersCount: number;
  followingCount: number;
  /** Whether the viewer follows this user; false without a viewer. */
  following: boolean;
}

/** Counts shown on a profile, in one round trip; the scrobble counts share one scan of the user's plays. */
export async function profileCounts(db: Database, user: User, viewerId: string | null): Promise<ProfileCounts> {
  const { rows } = await sql<ProfileCounts>`
    select plays.scrobbles_count as "scrobblesCount", plays.artists_count as "artistsCount", plays.songs_count as "songsCount",
      (select count(*)::int from follows where subject_id = ${user.id}) as "followersCount",
      (select count(*)::int from follows where user_id = ${user.id}) as "followingCount",
      exists (select 1 from follows where user_id = ${viewerId} and subject_id = ${user.id}) as following
    from (
      select count(*)::int as scrobbles_count, count(distinct t.artist_id)::int as artists_count, count(distinct s.track_id)::int as songs_count
      from scrobbles s join tracks t on t.id = s.track_id
      where s.user_id = ${user.id}
    ) plays`.execute(db);
  return rows[0]!;
}
