import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../adapters/http/operation.ts';
import { Empty } from '../../toolkit/schemas.ts';
import { ActorParam, userFromActorParam } from '../auth/index.ts';
import { accountOperations } from './account-operations.ts';
import { follow, unfollow } from './follows.ts';
import { Profile, profileView } from './profile.ts';

export const getProfile = defineQuery({
  nsid: 'app.svc.actor.getProfile',
  summary: "A user's public profile with listening and follow counts",
  auth: 'optional',
  params: Type.Object({ did: ActorParam() }),
  output: Profile,
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return profileView(ctx.db, await userFromActorParam(ctx.db, params.did), viewer);
  },
});

const FollowInput = Type.Object({ did: ActorParam('DID or handle of the user to (un)follow') });

/** follow and unfollow: the same call, applying `change` to the caller and the named user. */
function followOperation<N extends string>(nsid: N, summary: string, change: typeof follow) {
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

export const profileOperations = [getProfile, followActor, unfollowActor, ...accountOperations];
