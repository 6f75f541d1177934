/** One scrobble by its id: reading anyone's, deleting or correcting one's own. */
import { notFound } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';
import type { AppContext } from '../context.ts';
import { correctOwnScrobble, deleteOwnScrobble, type PlayCorrection } from './corrections.ts';
import type { Scrobble } from './schemas.ts';
import { selectScrobbleViews } from './view.ts';

export async function findScrobble(db: Database, viewerId: string | null, id: string): Promise<Scrobble> {
  const [found] = await selectScrobbleViews(db, viewerId, (query) => query.where('s.id', '=', id));
  if (!found) throw notFound(`no scrobble ${id}`);
  return found.scrobble;
}

export async function deleteScrobble(db: Database, userId: string, id: string): Promise<void> {
  // Another user's play is answered exactly like a missing one, and stays.
  if (!(await deleteOwnScrobble(db, userId, id))) throw notFound(`you have no scrobble ${id}`);
}

/** Applies the correction to the user's play; answers the play as it now is. */
export async function correctScrobble(ctx: AppContext, userId: string, id: string, change: PlayCorrection): Promise<Scrobble> {
  await correctOwnScrobble(ctx, userId, id, change);
  const [updated] = await selectScrobbleViews(ctx.db, userId, (query) => query.where('s.id', '=', id));
  // Deleted by another request in between.
  if (!updated) throw notFound(`you have no scrobble ${id}`);
  return updated.scrobble;
}
