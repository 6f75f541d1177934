import { sql, type Selectable } from 'kysely';
import { invalidRequest, notFound } from '../../../toolkit/errors.ts';
import type { DB, StarKind } from '../../../toolkit/db/index.ts';
import type { EditContext } from './log.ts';
import type { Tx } from './recorder.ts';

/**
 * Merges: everything that points at `from` moves to `into`, `from` is deleted, and an alias keeps
 * `from`'s id and old match key resolving to `into`. Writes go through the edit's recorder (raw
 * SQL fragments, the recorder's table aliased `o`), so undo restores every row.
 */

type CatalogTable = 'tracks' | 'albums' | 'artists';
export const TABLE_OF: Record<StarKind, CatalogTable> = { song: 'tracks', album: 'albums', artist: 'artists' };

/** Locks the catalog rows `ids` name (in id order, as every edit does), NotFound for a missing one. */
export async function lockEntries<T extends CatalogTable>(tx: Tx, table: T, kind: StarKind, ids: readonly string[]): Promise<Selectable<DB[T]>[]> {
  const rows = (await tx
    .selectFrom(table as 'tracks')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute()) as unknown as Selectable<DB[T]>[];
  const byId = new Map(rows.map((row) => [(row as { id: string }).id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound(`no ${kind} ${id}`);
    return row;
  });
}

async function lockPair<T extends CatalogTable>(tx: Tx, kind: StarKind, from: string, into: string) {
  if (from === into) throw invalidRequest(`from and into name the same ${kind}`);
  const [source, target] = await lockEntries(tx, TABLE_OF[kind] as T, kind, [from, into]);
  return { source: source!, target: target! };
}

/** Likes move; a user who liked both keeps one like (of `into`, with its own time). */
async function moveStars({ tx, recorder }: EditContext, kind: StarKind, from: string, into: string): Promise<void> {
  const stars = await recorder.delete('stars', sql`o.subject_kind = ${kind} and o.subject_id = ${from}`);
  if (!stars.length) return;
  const moved = await tx
    .insertInto('stars')
    .values(stars.map((star) => ({ user_id: star.user_id as string, subject_kind: kind, subject_id: into, created_at: star.created_at as string })))
    .onConflict((oc) => oc.doNothing())
    .returning(['user_id', 'subject_kind', 'subject_id'])
    .execute();
  recorder.inserted('stars', moved);
}

/** ListenBrainz "hate" feedback moves with the song as likes do; a user who disliked both keeps one. */
async function moveDislikes({ tx, recorder }: EditContext, from: string, into: string): Promise<void> {
  const dislikes = await recorder.delete('song_dislikes', sql`o.track_id = ${from}`);
  if (!dislikes.length) return;
  const moved = await tx
    .insertInto('song_dislikes')
    .values(dislikes.map((row) => ({ user_id: row.user_id as string, track_id: into, created_at: row.created_at as string })))
    .onConflict((oc) => oc.doNothing())
    .returning(['user_id', 'track_id'])
    .execute();
  recorder.inserted('song_dislikes', moved);
}

/** A new alias from an old match key (and id, when merged away) to `survivor`; undo deletes it. */
export async function addAlias(
  { tx, recorder, editId }: EditContext,
  alias: { kind: StarKind; oldId: string | null; survivor: string; artistId: string | null; key: string },
): Promise<void> {
  // An album's or a song's key means something only under its artist.
  const keyed = alias.kind === 'artist' || alias.artistId !== null;
  if (!alias.oldId && !keyed) return;
  const row = await tx
    .insertInto('catalog_aliases')
    .values({
      kind: alias.kind,
      old_id: alias.oldId,
      survivor_id: alias.survivor,
      artist_id: alias.artistId,
      name_key: keyed ? alias.key : null,
      edit_id: editId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  recorder.inserted('catalog_aliases', [row]);
}

/** `from` is gone: the aliases that led to it lead to `into`, and so do its own id and key. */
async function absorb(edit: EditContext, kind: StarKind, from: string, into: string, artistId: string | null, key: string): Promise<void> {
  await edit.recorder.update('catalog_aliases', sql`o.kind = ${kind} and o.survivor_id = ${from}`, sql`survivor_id = ${into}`);
  await edit.recorder.delete(TABLE_OF[kind], sql`o.id = ${from}`);
  await addAlias(edit, { kind, oldId: from, survivor: into, artistId, key });
}

export async function mergeSongs(edit: EditContext, from: string, into: string): Promise<string> {
  const { source, target } = await lockPair<'tracks'>(edit.tx, 'song', from, into);
  const { recorder } = edit;
  // A play of `from` at the very time its user played `into` is the same listen twice: one stays.
  await recorder.delete(
    'scrobbles',
    sql`o.track_id = ${from} and exists (select 1 from scrobbles d where d.user_id = o.user_id and d.track_id = ${into} and d.listened_at = o.listened_at)`,
  );
  for (const table of ['scrobbles', 'playlist_items', 'queue_items', 'library_files', 'now_playing'] as const) {
    await recorder.update(table, sql`o.track_id = ${from}`, sql`track_id = ${into}`);
  }
  await moveStars(edit, 'song', from, into);
  await moveDislikes(edit, from, into);
  await absorb(edit, 'song', from, into, source.artist_id, source.title_key);
  return `merged song "${source.title}" by ${source.artist} into "${target.title}" by ${target.artist}`;
}

export async function mergeAlbums(edit: EditContext, from: string, into: string): Promise<string> {
  const { source, target } = await lockPair<'albums'>(edit.tx, 'album', from, into);
  await edit.recorder.update('tracks', sql`o.album_id = ${from}`, sql`album_id = ${into}, album = ${target.title}, updated_at = now()`);
  await moveStars(edit, 'album', from, into);
  await absorb(edit, 'album', from, into, source.artist_id, source.title_key);
  return `merged album "${source.title}" by ${source.artist} into "${target.title}" by ${target.artist}`;
}

/** A credit naming `oldName` first ("Beatels feat. X") names `newName` instead; other credits stay as they are. */
export const renamedCredit = (oldName: string, newName: string) =>
  sql`case when left(artist, length(${oldName})) = ${oldName} then ${newName} || substr(artist, length(${oldName}) + 1) else artist end`;

export async function mergeArtists(edit: EditContext, from: string, into: string): Promise<string> {
  const { source, target } = await lockPair<'artists'>(edit.tx, 'artist', from, into);
  const { recorder } = edit;
  const credit = renamedCredit(source.name, target.name);
  await recorder.update('tracks', sql`o.artist_id = ${from}`, sql`artist_id = ${into}, artist = ${credit}, updated_at = now()`);
  await recorder.update('albums', sql`o.artist_id = ${from}`, sql`artist_id = ${into}, artist = ${credit}, updated_at = now()`);
  // Old album and song keys were matched under `from`; its albums and songs are `into`'s now.
  await recorder.update('catalog_aliases', sql`o.kind in ('song', 'album') and o.artist_id = ${from}`, sql`artist_id = ${into}`);
  await moveStars(edit, 'artist', from, into);
  await absorb(edit, 'artist', from, into, null, source.name_key);
  return `merged artist "${source.name}" into "${target.name}"`;
}
