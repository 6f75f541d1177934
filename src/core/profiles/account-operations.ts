import { Type } from '@sinclair/typebox';
import { invalidRequest, XrpcError } from '../../toolkit/errors.ts';
import { defineProcedure } from '../../adapters/http/operation.ts';
import { Empty } from '../../toolkit/schemas.ts';
import { normalizeHandle } from '../auth/identifiers.ts';
import { PASSWORD_MAX_LENGTH } from '../auth/passwords.ts';
import { changePassword, deleteUser, passwordMatches, updateUser } from '../auth/users.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { Profile, profileView } from './profile.ts';
import { readProfileChange } from './profile-change.ts';
import { forgetAvatar, isServedAvatar, keepAvatar } from './avatars.ts';

const Password = (description: string) => Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, description });

/**
 * 403, not 401: the caller's credential is good, only the password typed is not, so clients must
 * not take it as a reason to sign out.
 */
async function confirmPassword(db: Database, userId: string, password: string): Promise<void> {
  if (!(await passwordMatches(db, userId, password))) throw new XrpcError(403, 'AuthenticationFailed', 'the password is wrong');
}

export const updateProfile = defineProcedure({
  nsid: 'app.svc.actor.updateProfile',
  summary:
    "Change the caller's display name, avatar or time zone (only the fields given); answers the caller's profile. The picture at the avatar URL " +
    'is fetched once and kept: profiles then show it from this server (`/avatars/<id>`), so viewers never load it from the host given',
  auth: 'account',
  input: Type.Object({
    displayName: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '1 to 64 characters after trimming; null clears it' })),
    avatar: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'an http(s) URL of at most 2048 characters giving a JPEG, PNG, GIF, WebP or AVIF picture of at most 2 MiB; null clears it' })),
    timeZone: Type.Optional(Type.String({ maxLength: 64, description: 'an IANA time zone such as Europe/Berlin: Wrapped and charts count days and hours in it' })),
  }),
  output: Profile,
  errors: ['InvalidRequest'],
  async handler({ input, viewer, ctx }) {
    const change = await readProfileChange(ctx.db, input);
    if (change.avatar === null) await forgetAvatar(ctx.db, viewer.userId);
    else if (change.avatar !== undefined) {
      // The profile's own avatar URL sent back (a settings form saved unchanged) keeps the picture.
      change.avatar = isServedAvatar(ctx.config.publicUrl, viewer.userId, change.avatar) ? undefined : await keepAvatar(ctx, viewer.userId, change.avatar);
    }
    const user = await updateUser(ctx.db, viewer.userId, change);
    return profileView(ctx.db, user, viewer);
  },
});

export const changePasswordOperation = defineProcedure({
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
    await confirmPassword(ctx.db, viewer.userId, input.currentPassword);
    await changePassword(ctx.db, viewer.userId, input.newPassword, viewer.sessionId);
    return {};
  },
});

export const deleteAccount = defineProcedure({
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
    if (normalizeHandle(input.handle) !== viewer.handle) {
      throw invalidRequest(`to confirm, type this account's handle (${viewer.handle})`);
    }
    await confirmPassword(ctx.db, viewer.userId, input.password);
    await deleteUser(ctx.db, viewer.userId);
    return {};
  },
});

export const accountOperations = [updateProfile, changePasswordOperation, deleteAccount];
