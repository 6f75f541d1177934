import { inTransaction, type Database, type StarKind } from '../../toolkit/db/index.ts';
import { likeSong, unlikeSong } from '../catalog/likes.ts';
import type { AppContext } from '../context.ts';
import { forwardLove, type LoveChange } from '../relay/forward.ts';
import { missingParameter } from './errors.ts';
import { catalogKinds, knownIds } from './known-ids.ts';
import { albumViews, artistViews, songViews, type AlbumView, type ArtistView, type SongView } from './views.ts';

/**
 * Stars of songs, albums and artists. They are rows of `stars`, the relation the catalog calls
 * likes (catalog/likes.ts): starring a song likes it in getSongs and the feed, and the reverse, so
 * a song's star is written by likeSong and is a love like any other (webhooks, relay targets).
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

/** Writes one kind's stars; a song's star is its like, so it answers the loves it changed (catalog/likes.ts). */
type StarWrite = (tx: Database, kind: StarKind, ids: string[]) => Promise<(LoveChange | null)[]>;

/**
 * Checks every target exists (NotFound, nothing written) and applies `write` to them all in one
 * transaction; the songs' changed loves then go to the relay targets, as any client's likes do.
 */
async function changeStars(ctx: AppContext, userId: string, targets: StarTargets, write: StarWrite): Promise<void> {
  const loves = await inTransaction(ctx.db, async (tx) => {
    const list = await resolveTargets(tx, targets);
    const loves: (LoveChange | null)[] = [];
    for (const kind of KINDS) {
      const ids = [...new Set(list.filter((target) => target.kind === kind).map((target) => target.id))];
      if (ids.length > 0) loves.push(...(await write(tx, kind, ids)));
    }
    return loves;
  });
  forwardLove(ctx, userId, loves);
}

/** Each song's like or unlike, in order, within the transaction. */
async function eachSong(ids: string[], change: (trackId: string) => Promise<LoveChange | null>): Promise<(LoveChange | null)[]> {
  const changes: (LoveChange | null)[] = [];
  for (const id of ids) changes.push(await change(id));
  return changes;
}

/** Stars the targets; starring again keeps the first star's time. */
export function star(ctx: AppContext, userId: string, targets: StarTargets): Promise<void> {
  return changeStars(ctx, userId, targets, async (tx, kind, ids) => {
    if (kind === 'song') return eachSong(ids, (trackId) => likeSong(tx, userId, trackId));
    await tx
      .insertInto('stars')
      .values(ids.map((id) => ({ user_id: userId, subject_kind: kind, subject_id: id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    return [];
  });
}

/** Removes the targets' stars; unstarring what is not starred changes nothing. */
export function unstar(ctx: AppContext, userId: string, targets: StarTargets): Promise<void> {
  return changeStars(ctx, userId, targets, async (tx, kind, ids) => {
    if (kind === 'song') return eachSong(ids, (trackId) => unlikeSong(tx, userId, trackId));
    await tx.deleteFrom('stars').where('user_id', '=', userId).where('subject_kind', '=', kind).where('subject_id', 'in', ids).execute();
    return [];
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
