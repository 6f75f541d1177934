import { inTransaction, type Database, type StarKind } from '../db/index.ts';
import { missingParameter } from './errors.ts';
import { requireKnown } from './known-ids.ts';
import { albumViews, artistViews, songViews, type AlbumView, type ArtistView, type SongView } from './views.ts';

/**
 * Stars of songs, albums and artists. They are rows of `stars`, the relation the catalog calls
 * likes (catalog/likes.ts): starring a song likes it in getSongs and the feed, and the reverse.
 */

/** What a star or unstar names: Subsonic's id (a song), albumId and artistId, each repeatable. */
export interface StarTargets {
  song: readonly string[];
  album: readonly string[];
  artist: readonly string[];
}

const KINDS: readonly StarKind[] = ['song', 'album', 'artist'];

/** The targets as (kind, id) pairs, lowercase as the catalog keeps ids; none at all is a missing parameter. */
function targetList(targets: StarTargets): { kind: StarKind; id: string }[] {
  const list = KINDS.flatMap((kind) => targets[kind].map((id) => ({ kind, id: id.toLowerCase() })));
  if (list.length === 0) throw missingParameter('id, albumId or artistId');
  return list;
}

/** Checks every target exists (NotFound, nothing written) and applies `write` to them all in one transaction. */
async function changeStars(db: Database, targets: StarTargets, write: (tx: Database, kind: StarKind, ids: string[]) => Promise<void>) {
  const list = targetList(targets);
  await inTransaction(db, async (tx) => {
    for (const kind of KINDS) await requireKnown(tx, kind, targets[kind]);
    for (const kind of KINDS) {
      const ids = list.filter((target) => target.kind === kind).map((target) => target.id);
      if (ids.length > 0) await write(tx, kind, ids);
    }
  });
}

/** Stars the targets; starring again keeps the first star's time. */
export function star(db: Database, userId: string, targets: StarTargets): Promise<void> {
  return changeStars(db, targets, async (tx, kind, ids) => {
    await tx
      .insertInto('stars')
      .values([...new Set(ids)].map((id) => ({ user_id: userId, subject_kind: kind, subject_id: id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
}

/** Removes the targets' stars; unstarring what is not starred changes nothing. */
export function unstar(db: Database, userId: string, targets: StarTargets): Promise<void> {
  return changeStars(db, targets, async (tx, kind, ids) => {
    await tx.deleteFrom('stars').where('user_id', '=', userId).where('subject_kind', '=', kind).where('subject_id', 'in', ids).execute();
  });
}

export interface Starred {
  artist: ArtistView[];
  album: AlbumView[];
  song: SongView[];
}

/** What the user starred, newest star first in each list. */
export async function starred(db: Database, userId: string): Promise<Starred> {
  const rows = await db
    .selectFrom('stars')
    .select(['subject_kind', 'subject_id'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('subject_id')
    .execute();
  const ids = (kind: StarKind) => rows.filter((row) => row.subject_kind === kind).map((row) => row.subject_id);
  const [artist, album, song] = await Promise.all([
    artistViews(db, userId, ids('artist')),
    albumViews(db, userId, ids('album')),
    songViews(db, userId, ids('song')),
  ]);
  return { artist, album, song };
}
