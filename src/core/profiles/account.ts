/** What a signed-in user changes of their own account: the profile, the password, and deleting it. */
import { invalidRequest, XrpcError } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { normalizeHandle } from '../auth/identifiers.ts';
import { changePassword, deleteUser, passwordMatches, updateUser } from '../auth/users.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { AppContext } from '../context.ts';
import { forgetAvatar, isServedAvatar, keepAvatar } from './avatars.ts';
import { profileView } from './profile.ts';
import { readProfileChange, type ProfileInput } from './profile-change.ts';

/**
 * 403, not 401: the caller's credential is good, only the password typed is not, so clients must
 * not take it as a reason to sign out.
 */
async function confirmPassword(db: Database, userId: string, password: string): Promise<void> {
  if (!(await passwordMatches(db, userId, password))) throw new XrpcError(403, 'AuthenticationFailed', 'the password is wrong');
}

/** Applies the fields given to the caller's profile, keeping a new avatar's picture; answers the profile. */
export async function updateOwnProfile(ctx: AppContext, viewer: Viewer, input: ProfileInput) {
  const change = await readProfileChange(ctx.db, input);
  if (change.avatar === null) await forgetAvatar(ctx.db, viewer.userId);
  else if (change.avatar !== undefined) {
    // The profile's own avatar URL sent back (a settings form saved unchanged) keeps the picture.
    change.avatar = isServedAvatar(ctx.config.publicUrl, viewer.userId, change.avatar) ? undefined : await keepAvatar(ctx, viewer.userId, change.avatar);
  }
  const user = await updateUser(ctx.db, viewer.userId, change);
  return profileView(ctx.db, user, viewer);
}

/** Changes the caller's password once the current one is confirmed; ends their other sign-in sessions. */
export async function changeOwnPassword(db: Database, viewer: Viewer, currentPassword: string, newPassword: string): Promise<void> {
  await confirmPassword(db, viewer.userId, currentPassword);
  await changePassword(db, viewer.userId, newPassword, viewer.sessionId);
}

/** Deletes the caller's account once they typed its handle and their password to confirm. */
export async function deleteOwnAccount(db: Database, viewer: Viewer, handle: string, password: string): Promise<void> {
  if (normalizeHandle(handle) !== viewer.handle) {
    throw invalidRequest(`to confirm, type this account's handle (${viewer.handle})`);
  }
  await confirmPassword(db, viewer.userId, password);
  await deleteUser(db, viewer.userId);
}
