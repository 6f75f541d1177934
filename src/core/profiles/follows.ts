import type { Database } from '../../toolkit/db/index.ts';
import { invalidRequest } from '../../toolkit/errors.ts';

/** Idempotent: following someone already followed changes nothing. */
export async function follow(db: Database, userId: string, subjectId: string): Promise<void> {
  if (userId === subjectId) throw invalidRequest('cannot follow yourself');
  await db
    .insertInto('follows')
    .values({ user_id: userId, subject_id: subjectId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Idempotent: unfollowing someone not followed changes nothing. */
export async function unfollow(db: Database, userId: string, subjectId: string): Promise<void> {
  await db.deleteFrom('follows').where('user_id', '=', userId).where('subject_id', '=', subjectId).execute();
}
