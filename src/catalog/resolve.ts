import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/index.ts';
import { albumKey, artistKey, cleanText, primaryArtist, titleKey } from './normalize.ts';
import { spotifyTrackUrl, type TrackMetadata } from './track-metadata.ts';

type Tx = Transaction<DB>;

export interface ResolvedTrack {
  trackId: string;
  /** False when the catalog had no such track and it was created for this listen. */
  matched: boolean;
}

/** Serializes find-or-create of one catalog entry across concurrent ingests. */
async function lockKey(tx: Tx, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
}

async function trackByIdentifier(tx: Tx, metadata: TrackMetadata): Promise<string | undefined> {
  if (metadata.mbid) {
    const byMbid = await tx.selectFrom('tracks').select('id').where('mbid', '=', metadata.mbid).orderBy('created_at').limit(1).executeTakeFirst();
    if (byMbid) return byMbid.id;
  }
  if (metadata.isrc) {
    const byIsrc = await tx.selectFrom('tracks').select('id').where('isrc', '=', metadata.isrc.toUpperCase()).orderBy('created_at').limit(1).executeTakeFirst();
    if (byIsrc) return byIsrc.id;
  }
  return undefined;
}

async function findArtist(tx: Tx, metadata: TrackMetadata): Promise<string | undefined> {
  if (metadata.artistMbid) {
    const byMbid = await tx.selectFrom('artists').select('id').where('mbid', '=', metadata.artistMbid).executeTakeFirst();
    if (byMbid) return byMbid.id;
  }
  const byName = await tx
    .selectFrom('artists')
    .select('id')
    .where('name_key', '=', artistKey(metadata.artist))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return byName?.id;
}

/** A track by the same artist with the same title, preferring one on the same album. */
async function trackByName(tx: Tx, artistId: string, metadata: TrackMetadata): Promise<string | undefined> {
  const album = metadata.album;
  const row = await tx
    .selectFrom('tracks')
    .leftJoin('albums', 'albums.id', 'tracks.album_id')
    .select('tracks.id')
    .where('tracks.artist_id', '=', artistId)
    .where('tracks.title_key', '=', titleKey(metadata.title))
    .$if(album !== undefined, (query) =>
      query.orderBy(sql`case when ${sql.ref('albums.title_key')} = ${albumKey(album!)} then 0 else 1 end`),
    )
    .orderBy('tracks.created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

async function findOrCreateArtist(tx: Tx, metadata: TrackMetadata): Promise<string> {
  await lockKey(tx, `artist:${artistKey(metadata.artist)}`);
  const existing = await findArtist(tx, metadata);
  if (existing) return existing;
  const name = primaryArtist(metadata.artist);
  const created = await tx
    .insertInto('artists')
    .values({ name, name_key: artistKey(name), mbid: metadata.artistMbid ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

async function findOrCreateAlbum(tx: Tx, artistId: string, metadata: TrackMetadata): Promise<string | null> {
  if (!metadata.album) return null;
  const key = albumKey(metadata.album);
  await lockKey(tx, `album:${artistId}:${key}`);
  const existing = await tx
    .selectFrom('albums')
    .select('id')
    .where((eb) =>
      metadata.albumMbid
        ? eb.or([eb('mbid', '=', metadata.albumMbid), eb.and([eb('artist_id', '=', artistId), eb('title_key', '=', key)])])
        : eb.and([eb('artist_id', '=', artistId), eb('title_key', '=', key)]),
    )
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (existing) return existing.id;
  const created = await tx
    .insertInto('albums')
    .values({
      title: cleanText(metadata.album),
      title_key: key,
      artist: cleanText(metadata.albumArtist ?? primaryArtist(metadata.artist)),
      artist_id: artistId,
      mbid: metadata.albumMbid ?? null,
      album_art: metadata.albumArt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

async function createTrack(tx: Tx, artistId: string, metadata: TrackMetadata): Promise<string> {
  const albumId = await findOrCreateAlbum(tx, artistId, metadata);
  const created = await tx
    .insertInto('tracks')
    .values({
      title: cleanText(metadata.title),
      title_key: titleKey(metadata.title),
      artist: cleanText(metadata.artist),
      artist_id: artistId,
      album: metadata.album ? cleanText(metadata.album) : null,
      album_id: albumId,
      album_artist: metadata.albumArtist ? cleanText(metadata.albumArtist) : null,
      album_art: metadata.albumArt ?? null,
      duration: metadata.durationMs ?? null,
      track_number: metadata.trackNumber ?? null,
      disc_number: metadata.discNumber ?? null,
      mbid: metadata.mbid ?? null,
      isrc: metadata.isrc?.toUpperCase() ?? null,
      streaming_link_a: metadata.spotifyId ? spotifyTrackUrl(metadata.spotifyId) : null,
      tags: metadata.tags ?? [],
      genre: metadata.genre ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/** Fills catalog gaps a later submission knows about, without overwriting what is there. */
async function enrichTrack(tx: Tx, trackId: string, metadata: TrackMetadata): Promise<void> {
  const gaps = {
    duration: metadata.durationMs,
    mbid: metadata.mbid,
    isrc: metadata.isrc?.toUpperCase(),
    streaming_link_a: metadata.spotifyId && spotifyTrackUrl(metadata.spotifyId),
    track_number: metadata.trackNumber,
    genre: metadata.genre,
  };
  const known = Object.entries(gaps).filter(([, value]) => value !== undefined && value !== '');
  if (known.length === 0) return;
  await tx
    .updateTable('tracks')
    .set(Object.fromEntries(known.map(([column, value]) => [column, sql`coalesce(${sql.ref(column)}, ${value})`])))
    .where('id', '=', trackId)
    .where((eb) => eb.or(known.map(([column]) => eb(sql.ref(column), 'is', null))))
    .execute();
}

/**
 * Finds the catalog track a listen refers to: by recording MBID, then ISRC,
 * then normalized artist + title (+ album). Creates it when `create` allows;
 * otherwise null for an unmatched listen.
 */
export async function resolveTrack(tx: Tx, metadata: TrackMetadata, create: boolean): Promise<ResolvedTrack | null> {
  const byIdentifier = await trackByIdentifier(tx, metadata);
  if (byIdentifier) {
    await enrichTrack(tx, byIdentifier, metadata);
    return { trackId: byIdentifier, matched: true };
  }
  const knownArtist = await findArtist(tx, metadata);
  if (knownArtist) {
    const byName = await trackByName(tx, knownArtist, metadata);
    if (byName) {
      await enrichTrack(tx, byName, metadata);
      return { trackId: byName, matched: true };
    }
  }
  if (!create) return null;
  const artistId = knownArtist ?? (await findOrCreateArtist(tx, metadata));
  await lockKey(tx, `track:${artistId}:${titleKey(metadata.title)}`);
  const raced = await trackByName(tx, artistId, metadata);
  if (raced) return { trackId: raced, matched: true };
  return { trackId: await createTrack(tx, artistId, metadata), matched: false };
}
