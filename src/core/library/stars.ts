import { inTransaction, type Database, type StarKind } from '../../toolkit/db/index.ts';
import { missingParameter } from './errors.ts';
import { catalogKinds, knownIds } from './known-ids.ts';
import { albumViews, artistViews, songViews, type AlbumView, type ArtistView, type SongView } from './views.ts';

/**
 * Stars of songs, albums and artists. They are rows of `stars`, the relation the catalog calls
 * likes (catalog/likes.ts): starring a song likes it in getSongs and the feed, and the reverse.
 */

/**
 * What a star or unstar names, each repeatable: `id` a song (or, as Subsonic's folder-based
 * clients send it, an album or an artist), `album` and `artist` by their ID3 ids.
 */
export interface StarTargets {
  id: readonly string[];
  album: readonly string[];
  artist: readonly string[];
}

type Target = { kind: StarKind; id: string };

/** The targets as (kind, id) pairs, lowercase as the catalog keeps ids; NotFound for any unknown id. */
async function resolveTargets(tx: Database, targets: StarTargets): Promise<Target[]> {
  if (targets.id.length + targets.album.length + targets.artist.length === 0) throw missingParameter('id, albumId or artistId');
  const named = (kind: StarKind, ids: readonly string[]) => ids.map((id) => ({ kind, id }));
  const [albums, artists] = [await knownIds(tx, 'album', targets.album), await knownIds(tx, 'artist', targets.artist)];
  return [...(await catalogKinds(tx, targets.id)), ...named('album', albums), ...named('artist', artists)];
}

const KINDS: readonly StarKind[] = ['song', 'album', 'artist'];

/** Checks every target exists (NotFound, nothing written) and applies `write` to them all in one transaction. */
async function changeStars(db: Database, targets: StarTargets, write: (tx: Database, kind: StarKind, ids: string[]) => Promise<void>) {
  await inTransaction(db, async (tx) => {
    const list = await resolveTargets(tx, targets);
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
