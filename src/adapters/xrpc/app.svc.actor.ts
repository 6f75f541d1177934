/**
 * The `app.svc.actor` group: a user's public profile, what they played most and their scrobbles;
 * following them; and the caller's own account (profile, password, deleting it).
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { Empty } from '../../toolkit/schemas.ts';
import { ActorParam, userFromActorParam } from '../../core/auth/index.ts';
import { PASSWORD_MAX_LENGTH } from '../../core/auth/passwords.ts';
import { ActorAlbum, ActorArtist, topAlbums, topArtists, topSongs } from '../../core/catalog/actor-top.ts';
import { actorWindow } from '../../core/catalog/actor-window.ts';
import { Song } from '../../core/catalog/schemas.ts';
import { changeOwnPassword, deleteOwnAccount, updateOwnProfile } from '../../core/profiles/account.ts';
import { follow, unfollow } from '../../core/profiles/follows.ts';
import { Profile, profileView } from '../../core/profiles/profile.ts';
import { actorScrobbles } from '../../core/scrobbling/feed/feeds.ts';
import { Scrobble } from '../../core/scrobbling/schemas.ts';
import { TimeZoneParam } from '../../core/stats/time-zone.ts';
import { PERIODS } from '../../core/stats/window.ts';
import { FeedCursor, FeedPageParams } from './shared/feed-page.ts';
import { PageParams } from './shared/page-params.ts';

const getProfile = defineQuery({
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

const ActorParams = Type.Object({
  did: ActorParam(),
  ...PageParams,
  period: Type.Optional(
    Type.Union([Type.Literal('all'), ...PERIODS.map((period) => Type.Literal(period))], {
      default: 'all',
      description: 'all time, a calendar year, or a rolling window ending now',
    }),
  ),
  year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 9999, description: 'calendar year in tz for period=year; default the current one' })),
  tz: TimeZoneParam,
});

const pageOf = (params: Static<typeof ActorParams>) => ({ limit: params.limit, offset: params.offset });

const getActorSongs = defineQuery({
  nsid: 'app.svc.actor.getActorSongs',
  summary: "A user's most played songs, all time or over a period; playCount is that user's",
  auth: 'optional',
  params: ActorParams,
  output: Type.Object({ songs: Type.Array(Song) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return { songs: await topSongs(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params), viewer?.userId ?? null) };
  },
});

const getActorArtists = defineQuery({
  nsid: 'app.svc.actor.getActorArtists',
  summary: "A user's most played artists, all time or over a period; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ artists: Type.Array(ActorArtist) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return { artists: await topArtists(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params)) };
  },
});

const getActorAlbums = defineQuery({
  nsid: 'app.svc.actor.getActorAlbums',
  summary: "A user's most played albums, all time or over a period; playCount is that user's",
  auth: 'none',
  params: ActorParams,
  output: Type.Object({ albums: Type.Array(ActorAlbum) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return { albums: await topAlbums(ctx.db, user.id, await actorWindow(ctx.db, params, user), pageOf(params)) };
  },
});

const getActorScrobbles = defineQuery({
  nsid: 'app.svc.actor.getActorScrobbles',
  summary: "A user's scrobbles, newest first, paged like getFeed",
  auth: 'optional',
  params: Type.Object({ did: ActorParam(), ...FeedPageParams }),
  output: Type.Object({ scrobbles: Type.Array(Scrobble), cursor: FeedCursor }),
  errors: ['InvalidRequest', 'NotFound'],
  handler: ({ params, viewer, ctx }) => actorScrobbles(ctx.db, viewer?.userId ?? null, params.did, params),
});

const Password = (description: string) => Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, description });

const updateProfile = defineProcedure({
  nsid: 'app.svc.actor.updateProfile',
  summary:
    "Change the caller's display name, avatar or time zone (only the fields given); answers the caller's profile. The picture at the avatar URL " +
    'is fetched once and kept: profiles then show it from this server (`/avatars/<id>`), so viewers never load it from the host given',
  auth: 'account',
  input: Type.Object({
    displayName: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '1 to 64 characters after trimming; null clears it' })),
    avatar: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'an http(s) URL of at most 2048 characters giving a JPEG, PNG, GIF, WebP or AVIF picture of at most 2 MiB; null clears it',
      }),
    ),
    timeZone: Type.Optional(
      Type.String({ maxLength: 64, description: 'an IANA time zone such as Europe/Berlin: Wrapped and charts count days and hours in it' }),
    ),
  }),
  output: Profile,
  errors: ['InvalidRequest'],
  handler: ({ input, viewer, ctx }) => updateOwnProfile(ctx, viewer, input),
});

const changePassword = defineProcedure({
  nsid: 'app.svc.actor.changePassword',
  summary: "Change the caller's password; ends every other sign-in session (access tokens and API keys stay)",
  auth: 'account',
  input: Type.Object({
    currentPassword: Password('the password now'),
    newPassword: Password('at least 8 characters, as at sign-up'),
  }),
  output: Empty,
  errors: ['InvalidRequest', 'AuthenticationFailed'],
  async handler({ input, viewer, ctx }) {
    await changeOwnPassword(ctx.db, viewer, input.currentPassword, input.newPassword);
    return {};
  },
});

const deleteAccount = defineProcedure({
  nsid: 'app.svc.actor.deleteAccount',
  summary: "Delete the caller's account and everything of theirs (plays, likes, follows, credentials, connections, playlists); the handle becomes free",
  auth: 'account',
  input: Type.Object({
    handle: Type.String({ minLength: 1, maxLength: 253, description: "the caller's handle, typed to confirm" }),
    password: Password("the caller's password, typed to confirm"),
  }),
  output: Empty,
  errors: ['InvalidRequest', 'AuthenticationFailed'],
  async handler({ input, viewer, ctx }) {
    await deleteOwnAccount(ctx.db, viewer, input.handle, input.password);
    return {};
  },
});

export const actorOperations = [
  getProfile,
  followOperation('app.svc.actor.follow', "Follow a user, adding their scrobbles to the caller's earshot:feed:following; idempotent", follow),
  followOperation('app.svc.actor.unfollow', 'Stop following a user; idempotent', unfollow),
  getActorSongs,
  getActorArtists,
  getActorAlbums,
  getActorScrobbles,
  updateProfile,
  changePassword,
  deleteAccount,
];
