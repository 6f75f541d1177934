import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, DB } from '../../toolkit/db/index.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import { songLiked, songLikesCount, trackFields } from '../catalog/index.ts';
import { songArt } from '../song-art.ts';
import type { Scrobble } from './schemas.ts';

/** A scrobble's place in listening order; `listenedAt` keeps the database's microseconds. */
export interface ListenPosition {
  listenedAt: string;
  id: string;
}

function scrobbleViewQuery(db: Database, viewerId: string | null) {
  return db
    .selectFrom('scrobbles as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .selectAll('t')
    .select([
      's.id as scrobble_id',
      's.listened_at',
      's.edited_at',
      's.played_ms',
      sql<string>`to_char(s.listened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('position_time'),
      'u.did',
      'u.handle',
      'u.display_name as user_display_name',
      'u.avatar as user_avatar',
      songLiked(sql.ref('s.track_id'), viewerId).as('liked'),
      songLikesCount(sql.ref('s.track_id')).as('likesCount'),
      songArt('t').as('song_art'),
    ]);
}

type ScrobbleViewQuery = ReturnType<typeof scrobbleViewQuery>;
type ScrobbleViewRow = Awaited<ReturnType<ScrobbleViewQuery['execute']>>[number];
/** A narrowing of the scrobble view (filter, order, limit) that keeps its selection. */
// biome-ignore lint/suspicious/noExplicitAny: a narrowing may join tables of its own; the selection is what is kept
export type ScrobbleNarrowing = (query: ScrobbleViewQuery) => SelectQueryBuilder<DB & Record<string, any>, any, ScrobbleViewRow>;

function toScrobble(row: ScrobbleViewRow): Scrobble {
  const createdAt = isoDateTime(row.listened_at);
  return {
    id: row.scrobble_id,
    uri: `earshot:scrobble:${row.scrobble_id}`,
    trackId: row.id,
    trackUri: row.uri,
    ...trackFields(row, row),
    cover: row.song_art ?? undefined,
    handle: row.handle,
    did: row.did,
    avatar: row.user_avatar ?? undefined,
    user: row.handle,
    userDisplayName: row.user_display_name ?? undefined,
    userAvatar: row.user_avatar ?? undefined,
    createdAt,
    date: createdAt,
    ...(row.edited_at && { editedAt: isoDateTime(row.edited_at) }),
    ...(row.played_ms !== null && { playedMs: row.played_ms }),
  };
}

export interface PositionedScrobble {
  scrobble: Scrobble;
  position: ListenPosition;
}

/**
 * Scrobbles as the API shows them (spec 2.3), with `liked` relative to the
 * viewer. Every endpoint returning scrobbles goes through this one query.
 */
export async function selectScrobbleViews(db: Database, viewerId: string | null, narrow: ScrobbleNarrowing): Promise<PositionedScrobble[]> {
  const rows = await narrow(scrobbleViewQuery(db, viewerId)).execute();
  return rows.map((row) => ({ scrobble: toScrobble(row), position: { listenedAt: row.position_time, id: row.scrobble_id } }));
}
