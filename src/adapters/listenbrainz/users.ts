import { notFound } from '../../toolkit/errors.ts';
import { findUserByActor, type User } from '../../core/auth/users.ts';
import type { AppContext } from '../../core/context.ts';

/** The user a ListenBrainz path or parameter names, or ListenBrainz's 404. */
export async function userNamed(ctx: AppContext, userName: string): Promise<User> {
  const user = await findUserByActor(ctx.db, userName);
  if (!user) throw notFound(`Cannot find user: ${userName}`);
  return user;
}
