import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../api/operation.ts';
import { DateTime, Empty, isoDateTime } from '../api/schemas.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import { follow, unfollow } from './follows.ts';
import { profileCounts } from './profile.ts';

const Count = Type.Integer({ minimum: 0 });

export const getProfile = defineQuery({
  nsid: 'app.svc.actor.getProfile',
  summary: "A user's public profile with listening and follow counts",
  auth: 'optional',
  params: Type.Object({ did: ActorParam() }),
  output: Type.Object({
    did: Type.String(),
    handle: Type.String(),
    displayName: Type.Optional(Type.String()),
    avatar: Type.Optional(Type.String()),
    createdAt: DateTime({ description: 'when the account was created' }),
    scrobblesCount: Count,
    artistsCount: Type.Integer({ minimum: 0, description: 'distinct artists played' }),
    songsCount: Type.Integer({ minimum: 0, description: 'distinct songs played' }),
    followersCount: Count,
    followingCount: Count,
    following: Type.Boolean({ description: 'whether the caller follows this user; false without auth' }),
  }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return {
      did: user.did,
      handle: user.handle,
      ...(user.displayName === null ? {} : { displayName: user.displayName }),
      ...(user.avatar === null ? {} : { avatar: user.avatar }),
      createdAt: isoDateTime(user.createdAt),
      ...(await profileCounts(ctx.db, user, viewer?.userId ?? null)),
    };
  },
});

const FollowInput = Type.Object({ did: ActorParam('DID or handle of the user to (un)follow') });

/** follow and unfollow: the same call, applying `change` to the caller and the named user. */
function followOperation(nsid: string, summary: string, change: typeof follow) {
  return defineProcedure({
    nsid,
    summary,
    auth: 'required',
    input: FollowInput,
    output: Empty,
    errors: ['InvalidRequest', 'NotFound'],
    async handler({ input, viewer, ctx }) {
      await change(ctx.db, viewer.userId, (await userFromActorParam(ctx.db, input.did)).id);
      return {};
    },
  });
}

const followActor = followOperation('app.svc.actor.follow', "Follow a user, adding their scrobbles to the caller's earshot:feed:following; idempotent", follow);
const unfollowActor = followOperation('app.svc.actor.unfollow', 'Stop following a user; idempotent', unfollow);

export const profileOperations = [getProfile, followActor, unfollowActor];
