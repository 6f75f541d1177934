/**
 * Which catalog entries enrichment looks at next: songs without an MBID or genre, albums without
 * an MBID, genre or cover, artists with an MBID but no genres (an artist gets its MBID from a
 * song's recording: a name alone matches too loosely at MusicBrainz) and, when pictures are looked
 * for, artists without a picture (Deezer is asked by name). An entry tried before waits: an hour after
 * a failure, 30 days after anything else. Never-tried entries come first.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, DB, EnrichmentOutcome, StarKind } from '../../../toolkit/db/index.ts';

export interface PendingSong {
  id: string;
  title: string;
  artistName: string;
  albumTitle: string | null;
  artistId: string | null;
  albumId: string | null;
  mbid: string | null;
}

export interface PendingAlbum {
  id: string;
  title: string;
  artistName: string;
  mbid: string | null;
  hasArt: boolean;
}

export interface PendingArtist {
  id: string;
  name: string;
  mbid: string | null;
  hasGenres: boolean;
  hasPicture: boolean;
}

type WithAttempt = ExpressionBuilder<DB & { a: DB['enrichment_attempts'] }, 'a'>;

const due = (eb: WithAttempt) =>
  eb.or([
    eb('a.entry_id', 'is', null),
    eb('a.tried_at', '<', sql<Date>`now() - case when a.outcome = 'failed' then interval '1 hour' else interval '30 days' end`),
  ]);

export async function pendingSongs(db: Database, limit: number): Promise<PendingSong[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .leftJoin('enrichment_attempts as a', (join) => join.onRef('a.entry_id', '=', 't.id').on('a.kind', '=', 'song'))
    .select(['t.id', 't.title', sql<string>`coalesce(ar.name, t.artist)`.as('artist_name'), 'al.title as album_title', 't.artist_id', 't.album_id', 't.mbid'])
    .where((eb) => eb.or([eb('t.mbid', 'is', null), eb('t.genre', 'is', null)]))
    .where((eb) => due(eb as unknown as WithAttempt))
    .orderBy(sql`a.tried_at nulls first`)
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    artistName: row.artist_name,
    albumTitle: row.album_title,
    artistId: row.artist_id,
    albumId: row.album_id,
    mbid: row.mbid,
  }));
}

export async function pendingAlbums(db: Database, limit: number): Promise<PendingAlbum[]> {
  const rows = await db
    .selectFrom('albums as al')
    .leftJoin('artists as ar', 'ar.id', 'al.artist_id')
    .leftJoin('enrichment_attempts as a', (join) => join.onRef('a.entry_id', '=', 'al.id').on('a.kind', '=', 'album'))
    .select(['al.id', 'al.title', sql<string>`coalesce(ar.name, al.artist)`.as('artist_name'), 'al.mbid', sql<boolean>`al.album_art is not null`.as('has_art')])
    .where((eb) => eb.or([eb('al.mbid', 'is', null), eb('al.genre', 'is', null), eb('al.album_art', 'is', null)]))
    .where((eb) => due(eb as unknown as WithAttempt))
    .orderBy(sql`a.tried_at nulls first`)
    .orderBy('al.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, title: row.title, artistName: row.artist_name, mbid: row.mbid, hasArt: row.has_art }));
}

/** Artists lacking genres (and having an MBID to look them up by) or, with `pictures`, lacking a picture. */
export async function pendingArtists(db: Database, limit: number, pictures: boolean): Promise<PendingArtist[]> {
  const rows = await db
    .selectFrom('artists as ar')
    .leftJoin('enrichment_attempts as a', (join) => join.onRef('a.entry_id', '=', 'ar.id').on('a.kind', '=', 'artist'))
    .select(['ar.id', 'ar.name', 'ar.mbid', sql<boolean>`cardinality(ar.genres) > 0`.as('has_genres'), sql<boolean>`ar.picture is not null`.as('has_picture')])
    .where((eb) => {
      const lacksGenres = eb.and([eb('ar.mbid', 'is not', null), sql<boolean>`cardinality(ar.genres) = 0`]);
      return pictures ? eb.or([lacksGenres, eb('ar.picture', 'is', null)]) : lacksGenres;
    })
    .where((eb) => due(eb as unknown as WithAttempt))
    .orderBy(sql`a.tried_at nulls first`)
    .orderBy('ar.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, mbid: row.mbid, hasGenres: row.has_genres, hasPicture: row.has_picture }));
}

export async function recordAttempt(db: Database, kind: StarKind, entryId: string, outcome: EnrichmentOutcome): Promise<void> {
  await db
    .insertInto('enrichment_attempts')
    .values({ kind, entry_id: entryId, outcome })
    .onConflict((conflict) => conflict.columns(['kind', 'entry_id']).doUpdateSet({ outcome, tried_at: sql<Date>`now()` }))
    .execute();
}
