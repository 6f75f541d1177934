/** Songs of the catalog as callers read them (listed, one by id) and liking one. */
import { sql } from 'kysely';
import { notFound } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';
import type { AppContext } from '../context.ts';
import { forwardLove } from '../relay/forward.ts';
import type { likeSong } from './likes.ts';
import type { Song } from './schemas.ts';
import { songFilterCondition, type SongFilter } from './song-filter.ts';
import { songOrder } from './song-sort.ts';
import { allSongs, listedSongs, selectSongs, toSong } from './song-view.ts';

/** The songs getSongs answers with; `liked` is relative to `viewerId`. */
export async function listSongs(
  db: Database,
  query: SongFilter & { limit: number; offset: number; sort?: string | undefined },
  viewerId: string | null,
): Promise<Song[]> {
  const { limit, offset, sort, ...filter } = query;
  const where = songFilterCondition(filter);
  const rows = await selectSongs(db, listedSongs(db), { where, order: songOrder(sort), limit, offset }, viewerId);
  return rows.map(toSong);
}

export async function findSong(db: Database, id: string, viewerId: string | null): Promise<Song> {
  const [row] = await selectSongs(db, allSongs(db), { where: sql`t.id = ${id}`, order: [], limit: 1 }, viewerId);
  if (!row) throw notFound(`no song ${id}`);
  return toSong(row);
}

async function songExists(db: Database, id: string): Promise<void> {
  const track = await db.selectFrom('tracks').select('id').where('id', '=', id).executeTakeFirst();
  if (!track) throw notFound(`no song ${id}`);
}

/** Likes or unlikes (`change`) the song for the user, and forwards the change to the relay targets; answers its like state after. */
export async function changeSongLike(ctx: AppContext, userId: string, id: string, change: typeof likeSong): Promise<{ liked: boolean; likesCount: number }> {
  const { db } = ctx;
  await songExists(db, id);
  forwardLove(ctx, userId, [await change(db, userId, id)]);
  const song = await findSong(db, id, userId);
  return { liked: song.liked, likesCount: song.likesCount };
}
