import { sql, type Transaction } from 'kysely';
import { inTransaction, type Database, type DB } from '../../toolkit/db/index.ts';
import { MAX_NAME_LENGTH } from '../catalog/field-rules.ts';
import { invalidParameter, libraryNotFound, notAuthorized } from './errors.ts';
import { knownSongs } from './known-ids.ts';
import { isUuid } from '../../toolkit/uuid.ts';
import { checkLimit, MAX_PLAYLIST_SONGS, MAX_PLAYLISTS } from './limits.ts';
import { countRows, insertAt, playlistList, removeAt, replaceRows } from './ordered-rows.ts';
import { songViews, type SongView } from './views.ts';

/**
 * Playlists: a user's own, readable by others when public, changed only by their owner. Every
 * change runs in one transaction that checks everything before writing anything, so a refused
 * change (another user's playlist, an unknown song, an index out of range) leaves no trace.
 */

/** Subsonic's `Playlist`; durations in seconds, absent values omitted. */
export interface PlaylistView {
  id: string;
  name: string;
  comment?: string;
  /** The owner's handle. */
  owner: string;
  public: boolean;
  songCount: number;
  duration: number;
  created: string;
  changed: string;
  /** A song id whose cover art stands for the playlist: its first song with a cover. */
  coverArt?: string;
}

/** Subsonic's `PlaylistWithSongs`. */
export interface PlaylistWithSongs extends PlaylistView {
  entry: SongView[];
}

type Tx = Transaction<DB>;

function checkText(name: string, value: string | undefined): void {
  if (value !== undefined && value.length > MAX_NAME_LENGTH) throw invalidParameter(`${name} is longer than ${MAX_NAME_LENGTH} characters`);
}

function checkName(name: string | undefined): void {
  if (name !== undefined && name.trim() === '') throw invalidParameter('name must not be empty');
  checkText('name', name);
}

function summaries(db: Database, userId: string) {
  return db
    .selectFrom('playlists as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'p.name',
      'p.comment',
      'p.public',
      'p.created_at',
      'p.updated_at',
      'p.user_id',
      'u.handle',
      sql<number>`(select count(*)::int from playlist_items pi where pi.playlist_id = p.id)`.as('song_count'),
      sql<string>`(select coalesce(sum(t.duration), 0)::bigint from playlist_items pi join tracks t on t.id = pi.track_id where pi.playlist_id = p.id)`.as(
        'duration_ms',
      ),
      sql<string | null>`(select pi.track_id from playlist_items pi where pi.playlist_id = p.id and exists (
        select 1 from library_files f join library_sources s on s.id = f.source_id
         where f.track_id = pi.track_id and f.cover is not null and (s.user_id is null or s.user_id = ${userId}))
        order by pi.position limit 1)`.as('cover_track'),
    ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];

function toView(row: SummaryRow): PlaylistView {
  return {
    id: row.id,
    name: row.name,
    ...(row.comment === null ? {} : { comment: row.comment }),
    owner: row.handle,
    public: row.public,
    songCount: row.song_count,
    duration: Math.round(Number(row.duration_ms) / 1000),
    created: row.created_at.toISOString(),
    changed: row.updated_at.toISOString(),
    ...(row.cover_track === null ? {} : { coverArt: row.cover_track }),
  };
}

export interface PlaylistListing {
  /** Also list other users' public playlists (Subsonic's getPlaylists does; the XRPC one lists the caller's own). */
  includePublic?: boolean;
  /** List this user's playlists instead (by handle): all of them for the caller, the public ones of anyone else. */
  owner?: string | undefined;
}

/** The playlists the user may see under `listing`, the caller's own first, then by name. */
export async function listPlaylists(db: Database, userId: string, listing: PlaylistListing = {}): Promise<PlaylistView[]> {
  let query = summaries(db, userId);
  if (listing.owner !== undefined) {
    query = query.where('u.handle', '=', listing.owner).where((eb) => eb.or([eb('p.user_id', '=', userId), eb('p.public', '=', true)]));
  } else {
    query = query.where((eb) => (listing.includePublic ? eb.or([eb('p.user_id', '=', userId), eb('p.public', '=', true)]) : eb('p.user_id', '=', userId)));
  }
  const rows = await query.orderBy(sql`p.user_id <> ${userId}`).orderBy('p.name').orderBy('p.id').execute();
  return rows.map(toView);
}

/** One playlist with its songs: the user's own, or another user's public one; anything else is NotFound. */
export async function getPlaylist(db: Database, userId: string, playlistId: string): Promise<PlaylistWithSongs> {
  const row = isUuid(playlistId) ? await summaries(db, userId).where('p.id', '=', playlistId.toLowerCase()).executeTakeFirst() : undefined;
  if (!row || (row.user_id !== userId && !row.public)) throw libraryNotFound(`no playlist ${playlistId}`);
  // At most the limit: a playlist made before there was one may be longer, and this answer is whole.
  const items = await db
    .selectFrom('playlist_items')
    .select('track_id')
    .where('playlist_id', '=', row.id)
    .orderBy('position')
    .limit(MAX_PLAYLIST_SONGS)
    .execute();
  return {
    ...toView(row),
    entry: await songViews(
      db,
      userId,
      items.map((item) => item.track_id),
    ),
  };
}

/**
 * The playlist, locked for this transaction, if the user owns it. Another user's playlist is
 * NotAuthorized when the user can see it (public) and NotFound when they cannot, so a private
 * playlist's existence is never revealed.
 */
async function ownedPlaylist(tx: Tx, userId: string, playlistId: string) {
  const row = isUuid(playlistId)
    ? await tx.selectFrom('playlists').select(['id', 'user_id', 'public']).where('id', '=', playlistId.toLowerCase()).forUpdate().executeTakeFirst()
    : undefined;
  if (!row || (row.user_id !== userId && !row.public)) throw libraryNotFound(`no playlist ${playlistId}`);
  if (row.user_id !== userId) throw notAuthorized(`playlist ${playlistId} belongs to another user`);
  return row;
}

const checkPlaylistSize = (count: number) => checkLimit('a playlist', MAX_PLAYLIST_SONGS, count);

/** Refuses a new playlist past the user's limit; their row is locked so two creations at once take turns. */
async function checkPlaylistCount(tx: Tx, userId: string): Promise<void> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  const { n } = await tx
    .selectFrom('playlists')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  checkLimit('playlists per user', MAX_PLAYLISTS, Number(n) + 1);
}

/** Creates a playlist of the songs, in order; answers its id. */
export async function createPlaylist(db: Database, userId: string, name: string, songIds: readonly string[]): Promise<string> {
  checkName(name);
  checkPlaylistSize(songIds.length);
  return inTransaction(db, async (tx) => {
    await checkPlaylistCount(tx, userId);
    const songs = await knownSongs(tx, songIds);
    const { id } = await tx.insertInto('playlists').values({ user_id: userId, name }).returning('id').executeTakeFirstOrThrow();
    await replaceRows(
      tx,
      playlistList(id, userId),
      songs.map((track_id) => ({ track_id })),
    );
    return id;
  });
}

export interface PlaylistChanges {
  name?: string | undefined;
  comment?: string | undefined;
  public?: boolean | undefined;
  /** Replaces every song (Subsonic's createPlaylist with a playlistId); `remove` and `add` would then apply to this list. */
  songs?: readonly string[] | undefined;
  /** Indexes in the playlist as it was before this change (or in `songs`); removed first. */
  remove?: readonly number[] | undefined;
  /** Appended in order, after the removals. */
  add?: readonly string[] | undefined;
}

/** Refuses indexes outside a playlist of `length` songs. */
function checkIndexes(remove: readonly number[], length: number): void {
  const bad = remove.find((index) => !Number.isInteger(index) || index < 0 || index >= length);
  if (bad !== undefined) throw invalidParameter(`songIndexToRemove ${bad} is out of range: the playlist has ${length} songs`);
}

/** Changes the user's own playlist; nothing is written unless every part of the change is valid. */
export async function updatePlaylist(db: Database, userId: string, playlistId: string, changes: PlaylistChanges): Promise<void> {
  checkName(changes.name);
  checkText('comment', changes.comment);
  await inTransaction(db, async (tx) => {
    const playlist = await ownedPlaylist(tx, userId, playlistId);
    const list = playlistList(playlist.id, userId);
    const removed = [...new Set(changes.remove ?? [])];
    const length = changes.songs?.length ?? (await countRows(tx, list));
    checkIndexes(removed, length);
    checkPlaylistSize(length - removed.length + (changes.add?.length ?? 0));
    const [replacement, added] = [await knownSongs(tx, changes.songs ?? []), await knownSongs(tx, changes.add ?? [])];
    if (changes.songs !== undefined)
      await replaceRows(
        tx,
        list,
        replacement.map((track_id) => ({ track_id })),
      );
    await removeAt(tx, list, removed);
    await insertAt(
      tx,
      list,
      length - removed.length,
      added.map((track_id) => ({ track_id })),
    );
    await tx
      .updateTable('playlists')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.comment === undefined ? {} : { comment: changes.comment }),
        ...(changes.public === undefined ? {} : { public: changes.public }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', playlist.id)
      .execute();
  });
}

/** Deletes the user's own playlist with its items. */
export async function deletePlaylist(db: Database, userId: string, playlistId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const playlist = await ownedPlaylist(tx, userId, playlistId);
    await tx.deleteFrom('playlists').where('id', '=', playlist.id).execute();
  });
}
