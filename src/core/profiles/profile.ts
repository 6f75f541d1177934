import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import type { User, Viewer } from '../auth/index.ts';
import { playedCounts } from '../stats/index.ts';

const Count = Type.Integer({ minimum: 0 });

/** What app.svc.actor.getProfile (and updateProfile, for the caller) answers. */
export const Profile = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  displayName: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
  timeZone: Type.Optional(Type.String({ description: "the user's IANA time zone (Wrapped and charts count days in it); shown to the user themself only" })),
  createdAt: DateTime({ description: 'when the account was created' }),
  scrobblesCount: Count,
  artistsCount: Type.Integer({ minimum: 0, description: 'distinct artists played' }),
  songsCount: Type.Integer({ minimum: 0, description: 'distinct songs played' }),
  followersCount: Count,
  followingCount: Count,
  following: Type.Boolean({ description: 'whether the caller follows this user; false without auth' }),
  admin: Type.Optional(Type.Boolean({ description: 'true when the user may edit the catalog; shown to the user themself only' })),
});

/** A user's profile as `viewer` sees it: the time zone (a hint of where someone lives) and being an admin, only for themself. */
export async function profileView(db: Database, user: User, viewer: Viewer | null): Promise<Static<typeof Profile>> {
  return {
    did: user.did,
    handle: user.handle,
    ...(user.displayName === null ? {} : { displayName: user.displayName }),
    ...(user.avatar === null ? {} : { avatar: user.avatar }),
    ...(viewer?.userId === user.id ? { timeZone: user.timezone, ...(user.admin ? { admin: true } : {}) } : {}),
    createdAt: isoDateTime(user.createdAt),
    ...(await profileCounts(db, user, viewer?.userId ?? null)),
  };
}

export interface ProfileCounts {
  scrobblesCount: number;
  artistsCount: number;
  songsCount: number;
  followersCount: number;
  followingCount: number;
  /** Whether the viewer follows this user; false without a viewer. */
  following: boolean;
}

/** Counts shown on a profile, in one round trip; the play counts are the all-time totals' (playedCounts). */
export async function profileCounts(db: Database, user: User, viewerId: string | null): Promise<ProfileCounts> {
  const { rows } = await sql<ProfileCounts>`
    select played.plays as "scrobblesCount", played.artists as "artistsCount", played.tracks as "songsCount",
      (select count(*)::int from follows where subject_id = ${user.id}) as "followersCount",
      (select count(*)::int from follows where user_id = ${user.id}) as "followingCount",
      exists (select 1 from follows where user_id = ${viewerId} and subject_id = ${user.id}) as following
    from (${playedCounts(user.id)}) played`.execute(db);
  return rows[0]!;
}
