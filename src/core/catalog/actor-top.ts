import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'kysely';
import { NO_JIT, withSettings, type Database } from '../../toolkit/db/index.ts';
import { groupPlays } from '../stats/rollups/groups.ts';
import { isAllTime, trackPlays, type PlaysWindow } from '../stats/rollups/reads.ts';
import { playedTotals, topTotals } from '../stats/rollups/ranked-totals.ts';
import { albumFields, artistFields } from './group-view.ts';
import { AlbumView, ArtistView, type Song } from './schemas.ts';
import { allSongs, selectSongs, toSong } from './song-view.ts';

/**
 * A user's most played songs, artists and albums in a window, from the statistics rollups: the one
 * top-list algorithm behind getActorSongs/Artists/Albums and Last.fm's user.getTop* and weekly charts.
 */

/** In actor lists, playCount counts the actor's plays only. */
export const ActorArtist = Type.Omit(ArtistView, ['uniqueListeners']);
export const ActorAlbum = Type.Omit(AlbumView, ['uniqueListeners']);
export type ActorArtist = Static<typeof ActorArtist>;
export type ActorAlbum = Static<typeof ActorAlbum>;

export type TopSubject = 'track' | 'artist' | 'album';

export interface TopPage {
  limit: number;
  offset: number;
}

/**
 * The actor's play count per track, artist or album they played in the window, as (subject_id, play_count), from the rollups;
 * with `userId` null, everyone's.
 */
export function actorPlays(userId: string | null, window: PlaysWindow, subject: TopSubject) {
  if (subject !== 'track' && isAllTime(window)) {
    // All time: one row per artist or album from the group totals, not the user's every track grouped through `tracks`.
    return sql<{ subject_id: string; play_count: number }>`(select id as subject_id, plays as play_count from (${groupPlays(userId, subject)}) g)`.as('ap');
  }
  const counts = trackPlays(userId, window);
  const column = sql.ref(`t.${subject}_id`);
  const grouped =
    subject === 'track'
      ? sql`select track_id as subject_id, plays as play_count from (${counts}) c`
      : sql`select ${column} as subject_id, sum(c.plays)::int as play_count from (${counts}) c join tracks t on t.id = c.track_id where ${column} is not null group by 1`;
  return sql<{ subject_id: string; play_count: number }>`(${grouped})`.as('ap');
}

const MOST_PLAYED_SONGS = [
  { expression: sql.ref('ap.play_count'), direction: 'desc' as const },
  { expression: sql.ref('t.id'), direction: 'asc' as const },
];

/**
 * What a page of the top list needs: actorPlays, or of all time only the page's end of the totals in
 * play order (ranked-totals.ts), which is the list's start in the same order and holds the page.
 */
function pagePlays(userId: string, window: PlaysWindow, subject: TopSubject, page: TopPage) {
  if (!isAllTime(window)) return actorPlays(userId, window, subject);
  const top = topTotals(userId, subject, page.offset + page.limit);
  return sql<{ subject_id: string; play_count: number }>`(select id as subject_id, plays as play_count from (${top}) top)`.as('ap');
}

/**
 * Most played first; `liked` relative to `viewerId`. Without JIT: the page reads ~1 ms of rows, but
 * PostgreSQL guesses thousands of listeners per song where there are ~100, which on a large history
 * passes jit_above_cost, and compiling took 37 of the statement's 39 ms (all-time, 1M plays).
 */
export async function topSongs(db: Database, userId: string, window: PlaysWindow, page: TopPage, viewerId: string | null): Promise<Song[]> {
  const rows = await withSettings(db, NO_JIT, (tx) => {
    const source = allSongs(tx)
      .innerJoin(pagePlays(userId, window, 'track', page), 'ap.subject_id', 't.id')
      .select('ap.play_count as actor_play_count');
    return selectSongs<{ actor_play_count: number }>(tx, source, { order: MOST_PLAYED_SONGS, ...page }, viewerId);
  });
  return rows.map((row) => ({ ...toSong(row), playCount: row.actor_play_count }));
}

export async function topArtists(db: Database, userId: string, window: PlaysWindow, page: TopPage): Promise<ActorArtist[]> {
  const rows = await db
    .selectFrom('artists as ar')
    .innerJoin(pagePlays(userId, window, 'artist', page), 'ap.subject_id', 'ar.id')
    .selectAll('ar')
    .select('ap.play_count')
    .orderBy('ap.play_count', 'desc')
    .orderBy('ar.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({ ...artistFields(row), playCount: row.play_count }));
}

export async function topAlbums(db: Database, userId: string, window: PlaysWindow, page: TopPage): Promise<ActorAlbum[]> {
  const rows = await db
    .selectFrom('albums as al')
    .innerJoin(pagePlays(userId, window, 'album', page), 'ap.subject_id', 'al.id')
    .selectAll('al')
    .select('ap.play_count')
    .orderBy('ap.play_count', 'desc')
    .orderBy('al.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({ ...albumFields(row), playCount: row.play_count }));
}

/** How many tracks, artists or albums the actor played in the window: the length of the whole top list, for paging. */
export async function playedCount(db: Database, userId: string, window: PlaysWindow, subject: TopSubject): Promise<number> {
  const counted = isAllTime(window) ? playedTotals(userId, subject) : sql<{ n: number }>`select count(*)::int as n from ${actorPlays(userId, window, subject)}`;
  const { rows } = await counted.execute(db);
  return rows[0]!.n;
}
