import { sql } from 'kysely';
import { albumKey, artistKey } from '../../core/catalog/normalize.ts';
import { matchKnownTracks } from '../../core/catalog/resolve.ts';
import { inTransaction, type Database } from '../../toolkit/db/index.ts';
import { groupPlays } from '../../core/stats/rollups/groups.ts';
import { ALL_TIME, trackPlays } from '../../core/stats/rollups/reads.ts';
import { notFound } from './errors.ts';
import { InvalidParameter, musicBrainzId, requiredParam, type Params } from './params.ts';

/** The catalog entry a *.getInfo call names, by `mbid` or by names matched as the catalog matches them. */

/** Last.fm's words for an entity it does not know (error 6). */
const NOT_FOUND = { track: 'Track not found', artist: 'The artist you supplied could not be found', album: 'Album not found' } as const;

/** A name that is present and not blank, else error 6 naming it. */
export function requiredName(params: Params, field: string): string {
  const value = requiredParam(params, field);
  if (!value.trim()) throw new InvalidParameter(`${field} must not be empty`);
  return value;
}

/** Two names, such as `artist` and `track`. */
export const namedPair = (params: Params, first: string, second: string): [string, string] => [requiredName(params, first), requiredName(params, second)];

async function byMbid(db: Database, table: 'tracks' | 'artists' | 'albums', mbid: string): Promise<string | undefined> {
  const row = await db.selectFrom(table).select('id').where('mbid', '=', mbid).orderBy('created_at').limit(1).executeTakeFirst();
  return row?.id;
}

/** The artist a name means as the matcher reads it: by normalized name, else by an old name a catalog edit (merge, rename) left as an alias. */
export async function artistNamed(db: Database, name: string): Promise<string | undefined> {
  const key = artistKey(name);
  const row = await db.selectFrom('artists').select('id').where('name_key', '=', key).orderBy('created_at').limit(1).executeTakeFirst();
  if (row) return row.id;
  const aliased = await db
    .selectFrom('catalog_aliases as a')
    .innerJoin('artists', 'artists.id', 'a.survivor_id')
    .select('artists.id')
    .where('a.kind', '=', 'artist')
    .where('a.name_key', '=', key)
    .orderBy('artists.created_at')
    .limit(1)
    .executeTakeFirst();
  return aliased?.id;
}

/** What lists and corrections show of an artist: its kept name and MBID. */
export const artistById = (db: Database, id: string) => db.selectFrom('artists').select(['id', 'name', 'mbid']).where('id', '=', id).executeTakeFirstOrThrow();

export type NamedArtist = Awaited<ReturnType<typeof artistById>>;

/** The track `artist` - `track` names, matched as the catalog matches plays (aliases included); undefined when unknown. */
export async function trackNamed(db: Database, artist: string, title: string): Promise<string | undefined> {
  const [match] = await inTransaction(db, (tx) => matchKnownTracks(tx, [{ artist, title }]));
  return match;
}

export async function findTrack(db: Database, params: Params): Promise<string> {
  const mbid = musicBrainzId(params, 'mbid');
  const id = mbid ? await byMbid(db, 'tracks', mbid) : await trackNamed(db, ...namedPair(params, 'artist', 'track'));
  if (!id) throw notFound(NOT_FOUND.track);
  return id;
}

export async function findArtist(db: Database, params: Params): Promise<string> {
  const mbid = musicBrainzId(params, 'mbid');
  const id = mbid ? await byMbid(db, 'artists', mbid) : await artistNamed(db, requiredName(params, 'artist'));
  if (!id) throw notFound(NOT_FOUND.artist);
  return id;
}

export async function findAlbum(db: Database, params: Params): Promise<string> {
  const mbid = musicBrainzId(params, 'mbid');
  let id: string | undefined;
  if (mbid) id = await byMbid(db, 'albums', mbid);
  else {
    const [artist, album] = namedPair(params, 'artist', 'album');
    const artistId = await artistNamed(db, artist);
    const row = artistId
      ? await db
          .selectFrom('albums')
          .select('id')
          .where('title_key', '=', albumKey(album))
          .where('artist_id', '=', artistId)
          .orderBy('created_at')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    id = row?.id;
  }
  if (!id) throw notFound(NOT_FOUND.album);
  return id;
}

/** A user's all-time plays of a track, or of an artist's or album's tracks, from the rollups. */
export async function userPlays(db: Database, userId: string, subject: 'track' | 'artist' | 'album', id: string): Promise<number> {
  // An artist's or album's from its group totals (one row), not the user's every track grouped through `tracks`.
  const counts =
    subject === 'track'
      ? sql`select plays from (${trackPlays(userId, ALL_TIME)}) c where track_id = ${id}`
      : sql`select plays from (${groupPlays(userId, subject)}) g where id = ${id}`;
  const { rows } = await sql<{ n: number }>`select coalesce(sum(plays), 0)::int as n from (${counts}) c`.execute(db);
  return rows[0]!.n;
}
