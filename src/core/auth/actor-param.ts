import { Type } from '@sinclair/typebox';
import type { Database } from '../../toolkit/db/index.ts';
import { invalidRequest, notFound } from '../../toolkit/errors.ts';
import { parseActor } from './identifiers.ts';
import { findUserByActor, type User } from './users.ts';

/** Schema of every parameter or body field that names a user. */
export const ActorParam = (description = 'DID or handle of the user') => Type.String({ minLength: 1, maxLength: 2100, description });

/** The user an actor parameter names: 400 InvalidRequest when malformed, 404 NotFound when unknown. */
export async function userFromActorParam(db: Database, actor: string): Promise<User> {
  if (!parseActor(actor)) throw invalidRequest('actor must be a DID or handle');
  const user = await findUserByActor(db, actor);
  if (!user) throw notFound(`no user ${actor}`);
  return user;
}
