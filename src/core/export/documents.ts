/** The parts of a user's export besides plays: who they are, what they like, their playlists. */
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../toolkit/db/index.ts';

export interface ExportedUser {
  id: string;
  did: string;
  handle: string;
}

export async function profileDocument(db: Database, user: ExportedUser) {
  const row = await db
    .selectFrom('users as u')
    .select(['u.did', 'u.handle', 'u.display_name', 'u.avatar', 'u.timezone', 'u.created_at'])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('follows as f')
          .innerJoin('users as o', 'o.id', 'f.subject_id')
          .select(['o.did', 'o.handle', 'f.created_at'])
          .whereRef('f.user_id', '=', 'u.id')
          .orderBy('f.created_at'),
      ).as('following'),
      jsonArrayFrom(
        eb.selectFrom('lb_latest_imports as li').select(['li.service', 'li.latest_import']).whereRef('li.user_id', '=', 'u.id').orderBy('li.service'),
      ).as('latest_imports'),
    ])
    .where('u.id', '=', user.id)
    .executeTakeFirstOrThrow();
  return {
    did: row.did,
    handle: row.handle,
    displayName: row.display_name,
    avatar: row.avatar,
    timeZone: row.timezone,
    createdAt: row.created_at.toISOString(),
    following: row.following.map((followed) => ({ did: followed.did, handle: followed.handle, since: new Date(followed.created_at).toISOString() })),
    // What ListenBrainz importers said they imported up to (POST /1/latest-import), per service, in unix seconds.
    latestImports: row.latest_imports.map((entry) => ({ service: entry.service, latestImport: Number(entry.latest_import) })),
  };
}

/** Liked songs, albums and artists with their names, oldest like first. */
export async function likesDocument(db: Database, userId: string) {
  const rows = await db
    .selectFrom('stars as s')
    .leftJoin('tracks as t', (join) => join.onRef('t.id', '=', 's.subject_id').on('s.subject_kind', '=', 'song'))
    .leftJoin('albums as al', (join) => join.onRef('al.id', '=', 's.subject_id').on('s.subject_kind', '=', 'album'))
    .leftJoin('artists as ar', (join) => join.onRef('ar.id', '=', 's.subject_id').on('s.subject_kind', '=', 'artist'))
    .select([
      's.subject_kind',
      's.subject_id',
      's.created_at',
      't.title',
      't.artist as track_artist',
      't.album',
      'al.title as album_title',
      'al.artist as album_artist',
      'ar.name',
    ])
    .where('s.user_id', '=', userId)
    .orderBy('s.created_at')
    .execute();
  return rows.map((row) => ({
    kind: row.subject_kind,
    id: row.subject_id,
    likedAt: row.created_at.toISOString(),
    ...(row.subject_kind === 'song' ? { title: row.title, artist: row.track_artist, album: row.album } : {}),
    ...(row.subject_kind === 'album' ? { title: row.album_title, artist: row.album_artist } : {}),
    ...(row.subject_kind === 'artist' ? { name: row.name } : {}),
  }));
}

/** Songs hated through ListenBrainz feedback, oldest first. */
export async function dislikesDocument(db: Database, userId: string) {
  const rows = await db
    .selectFrom('song_dislikes as d')
    .leftJoin('tracks as t', 't.id', 'd.track_id')
    .select(['d.track_id', 'd.created_at', 't.title', 't.artist', 't.album'])
    .where('d.user_id', '=', userId)
    .orderBy('d.created_at')
    .execute();
  return rows.map((row) => ({ id: row.track_id, dislikedAt: row.created_at.toISOString(), title: row.title, artist: row.artist, album: row.album }));
}

/** Playlists with their songs in order. */
export async function playlistsDocument(db: Database, userId: string) {
  const rows = await db
    .selectFrom('playlists as p')
    .select(['p.id', 'p.name', 'p.comment', 'p.public', 'p.created_at', 'p.updated_at'])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('playlist_items as i')
          .innerJoin('tracks as t', 't.id', 'i.track_id')
          .select(['t.id', 't.title', 't.artist', 't.album', 'i.added_at'])
          .whereRef('i.playlist_id', '=', 'p.id')
          .orderBy('i.position'),
      ).as('songs'),
    ])
    .where('p.user_id', '=', userId)
    .orderBy('p.created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    comment: row.comment,
    public: row.public,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    songs: row.songs.map((song) => ({
      id: song.id,
      title: song.title,
      artist: song.artist,
      album: song.album,
      addedAt: new Date(song.added_at).toISOString(),
    })),
  }));
}
