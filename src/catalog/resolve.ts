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

/** Catalog columns a later submission may fill when they are still empty. */
const ENRICHABLE = ['duration', 'mbid', 'isrc', 'streaming_link_a', 'track_number', 'genre'] as const;
type Enrichable = (typeof ENRICHABLE)[number];

/** The enrichable columns a submission knows values for, as [column, value] pairs. */
function knownEnrichable(metadata: TrackMetadata): [Enrichable, string | number][] {
  const values: Record<Enrichable, string | number | undefined> = {
    duration: metadata.durationMs,
    mbid: metadata.mbid,
    isrc: metadata.isrc?.toUpperCase(),
    streaming_link_a: metadata.spotifyId && spotifyTrackUrl(metadata.spotifyId),
    track_number: metadata.trackNumber,
    genre: metadata.genre,
  };
  return ENRICHABLE.flatMap((column) => {
    const value = values[column];
    return value === undefined || value === '' ? [] : [[column, value] as [Enrichable, string | number]];
  });
}

/** Fills catalog gaps a later submission knows about, without overwriting what is there. */
async function enrichTrack(tx: Tx, trackId: string, metadata: TrackMetadata): Promise<void> {
  const known = knownEnrichable(metadata);
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

/** The enrichable columns are read up front with each candidate, to skip needless updates. */
type EnrichableRow = { [K in Enrichable]: unknown };
type CandidateRow = EnrichableRow & { id: string; created_at: Date };

function hasGaps(row: EnrichableRow, metadata: TrackMetadata): boolean {
  return knownEnrichable(metadata).some(([column]) => row[column] === null);
}

type Dated = { created_at: Date };

const earliest = <R extends Dated>(rows: R[]) => rows.reduce<R | undefined>((best, row) => (!best || row.created_at < best.created_at ? row : best), undefined);

function groupBy<R>(rows: R[], key: (row: R) => string): Map<string, R[]> {
  const grouped = new Map<string, R[]>();
  for (const row of rows) {
    const group = grouped.get(key(row));
    if (group) group.push(row);
    else grouped.set(key(row), [row]);
  }
  return grouped;
}

/** The earliest-created row per value of `key`. */
function earliestBy<R extends Dated>(rows: R[], key: (row: R) => string): Map<string, R> {
  return new Map([...groupBy(rows, key)].map(([value, group]) => [value, earliest(group)!]));
}

const nameMatchKey = (artistId: string, title: string) => `${artistId} ${title}`;

const unique = <T>(values: (T | undefined)[]) => [...new Set(values.filter((value): value is T => value !== undefined && value !== ''))];

/** What the catalog already holds for a batch of listens, in four queries whatever the batch size. */
async function prefetch(tx: Tx, items: readonly TrackMetadata[]) {
  const mbids = unique(items.map((item) => item.mbid));
  const isrcs = unique(items.map((item) => item.isrc?.toUpperCase()));
  const artistKeys = unique(items.map((item) => artistKey(item.artist)));
  const titleKeys = unique(items.map((item) => titleKey(item.title)));
  const trackColumns = ['tracks.id', 'tracks.created_at', ...ENRICHABLE.map((column) => `tracks.${column}` as const)] as const;
  const byMbid = mbids.length ? await tx.selectFrom('tracks').select(trackColumns).where('mbid', 'in', mbids).execute() : [];
  const byIsrc = isrcs.length ? await tx.selectFrom('tracks').select(trackColumns).where('isrc', 'in', isrcs).execute() : [];
  const artists = artistKeys.length ? await tx.selectFrom('artists').select(['id', 'name_key', 'created_at']).where('name_key', 'in', artistKeys).execute() : [];
  const artistByKey = earliestBy(artists, (row) => row.name_key);
  const artistIds = unique([...artistByKey.values()].map((row) => row.id));
  const named =
    artistIds.length && titleKeys.length
      ? await tx
          .selectFrom('tracks')
          .leftJoin('albums', 'albums.id', 'tracks.album_id')
          .select([...trackColumns, 'tracks.artist_id', 'tracks.title_key', 'albums.title_key as album_key'])
          .where('tracks.artist_id', 'in', artistIds)
          .where('tracks.title_key', 'in', titleKeys)
          .execute()
      : [];
  return {
    byMbid: earliestBy(byMbid, (row) => row.mbid as string),
    byIsrc: earliestBy(byIsrc, (row) => row.isrc as string),
    artistByKey,
    namedByKey: groupBy(named, (row) => nameMatchKey(row.artist_id!, row.title_key)),
  };
}

type Prefetched = Awaited<ReturnType<typeof prefetch>>;

/**
 * The track resolveTrack would find, from prefetched rows. Only hits are
 * trusted: a miss may be filled by an earlier listen of the same batch, so
 * misses are resolved live.
 */
function prefetchedMatch(found: Prefetched, metadata: TrackMetadata): CandidateRow | undefined {
  const byMbid = metadata.mbid ? found.byMbid.get(metadata.mbid) : undefined;
  if (byMbid) return byMbid;
  const byIsrc = metadata.isrc ? found.byIsrc.get(metadata.isrc.toUpperCase()) : undefined;
  if (byIsrc) return byIsrc;
  // An identifier miss or an artist MBID needs the live lookups' exact order.
  if (metadata.mbid || metadata.isrc || metadata.artistMbid) return undefined;
  const artist = found.artistByKey.get(artistKey(metadata.artist));
  if (!artist) return undefined;
  const title = titleKey(metadata.title);
  const album = metadata.album === undefined ? undefined : albumKey(metadata.album);
  const candidates = found.namedByKey.get(nameMatchKey(artist.id, title)) ?? [];
  const sameAlbum = candidates.filter((row) => album !== undefined && row.album_key === album);
  return earliest(sameAlbum.length ? sameAlbum : candidates);
}

/**
 * resolveTrack for many listens at once: tracks the catalog already has are
 * found set-based; the rest go through resolveTrack one by one.
 */
export async function resolveTracks(tx: Tx, items: readonly TrackMetadata[], create: boolean): Promise<(ResolvedTrack | null)[]> {
  const found = await prefetch(tx, items);
  const resolved: (ResolvedTrack | null)[] = [];
  for (const metadata of items) {
    const hit = prefetchedMatch(found, metadata);
    if (!hit) {
      resolved.push(await resolveTrack(tx, metadata, create));
      continue;
    }
    if (hasGaps(hit, metadata)) await enrichTrack(tx, hit.id, metadata);
    resolved.push({ trackId: hit.id, matched: true });
  }
  return resolved;
}
