import { createHash } from 'node:crypto';
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import { RetryableConflict } from '../db/retry.ts';
import type { DB } from '../db/index.ts';
import { albumKey, artistKey, cleanText, primaryArtist, titleKey } from './normalize.ts';
import { spotifyTrackUrl, type TrackMetadata } from './track-metadata.ts';

type Tx = Transaction<DB>;

export interface ResolvedTrack {
  trackId: string;
  /** False when the catalog had no such track and it was created for this listen. */
  matched: boolean;
}

/** Catalog columns a later submission may fill when they are still empty. */
const ENRICHABLE = [
  'duration', 'mbid', 'isrc', 'streaming_link_a', 'track_number', 'disc_number', 'genre',
  'album_art', 'composer', 'label', 'bpm', 'key', 'lyrics',
] as const;
type Enrichable = (typeof ENRICHABLE)[number];
type EnrichableValue = string | number;

/** SQL types of the enrichable columns, to read fill values back from JSON. */
const ENRICHABLE_TYPES: Record<Enrichable, 'integer' | 'text'> = {
  duration: 'integer',
  mbid: 'text',
  isrc: 'text',
  streaming_link_a: 'text',
  track_number: 'integer',
  disc_number: 'integer',
  genre: 'text',
  album_art: 'text',
  composer: 'text',
  label: 'text',
  bpm: 'integer',
  key: 'text',
  lyrics: 'text',
};

/** The enrichable columns are read with each candidate track, to skip needless updates. */
type EnrichableRow = { [K in Enrichable]: unknown };
type CandidateRow = EnrichableRow & { id: string; created_at: Date };

const TRACK_COLUMNS = ['tracks.id', 'tracks.created_at', ...ENRICHABLE.map((column) => `tracks.${column}` as const)] as const;

/** The enrichable columns a submission knows values for, as [column, value] pairs. */
function knownEnrichable(metadata: TrackMetadata): [Enrichable, EnrichableValue][] {
  const values: Record<Enrichable, EnrichableValue | undefined> = {
    duration: metadata.durationMs,
    mbid: metadata.mbid,
    isrc: metadata.isrc?.toUpperCase(),
    streaming_link_a: metadata.spotifyId && spotifyTrackUrl(metadata.spotifyId),
    track_number: metadata.trackNumber,
    disc_number: metadata.discNumber,
    genre: metadata.genre,
    album_art: metadata.albumArt,
    composer: metadata.composer,
    label: metadata.label,
    bpm: metadata.bpm,
    key: metadata.key,
    lyrics: metadata.lyrics,
  };
  return ENRICHABLE.flatMap((column) => {
    const value = values[column];
    return value === undefined || value === '' ? [] : [[column, value] as [Enrichable, EnrichableValue]];
  });
}

/**
 * One resolution pass inside one transaction. Deadlock freedom comes from its
 * order: every advisory lock the pass may need is taken up front, sorted; rows
 * of existing tracks are updated only at the end, sorted by id. Until then the
 * gaps a listen fills are kept here, and identifier lookups see them as if written.
 */
interface Pass {
  locked: ReadonlySet<string>;
  fills: Fills;
}

/** Per track: the enrichable values read from the catalog, and the gaps listens fill (first one wins). */
type Fills = Map<string, { current: EnrichableRow; fill: Partial<Record<Enrichable, EnrichableValue>> }>;

/** Records the catalog gaps a listen knows values for, as the coalescing update at the end will fill them. */
function enrich(fills: Fills, track: CandidateRow, metadata: TrackMetadata): void {
  const entry = fills.get(track.id) ?? { current: track, fill: {} };
  for (const [column, value] of knownEnrichable(metadata)) {
    if (entry.current[column] === null && entry.fill[column] === undefined) entry.fill[column] = value;
  }
  if (Object.keys(entry.fill).length > 0) fills.set(track.id, entry);
}

/**
 * Fills the recorded gaps in one statement, never overwriting a value another
 * writer set. The rows are locked first, in id order: a set-based UPDATE locks
 * rows in whatever order its plan visits them, and every writer must take
 * track row locks in one order to stay deadlock-free.
 */
async function applyFills(tx: Tx, fills: Fills): Promise<void> {
  if (fills.size === 0) return;
  const ids = [...fills.keys()].sort();
  await tx.selectFrom('tracks').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  const rows = ids.map((id) => ({ id, ...fills.get(id)!.fill }));
  const shape = sql.raw(['id uuid', ...ENRICHABLE.map((column) => `${column} ${ENRICHABLE_TYPES[column]}`)].join(', '));
  const set = sql.join(ENRICHABLE.map((column) => sql`${sql.ref(column)} = coalesce(${sql.ref(`tracks.${column}`)}, ${sql.ref(`fill.${column}`)})`));
  const gap = sql.join(
    ENRICHABLE.map((column) => sql`(${sql.ref(`tracks.${column}`)} is null and ${sql.ref(`fill.${column}`)} is not null)`),
    sql` or `,
  );
  // A column a track gets no value for is null in its fill row, and coalesce keeps what the catalog has.
  await sql`update tracks set ${set} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as fill(${shape}) where tracks.id = fill.id and (${gap})`.execute(tx);
}

/** Tracks this pass is about to give `value` in `column`: the catalog does not show it yet. */
function filledWith(pass: Pass, column: 'mbid' | 'isrc', value: string): string[] {
  return [...pass.fills].filter(([, entry]) => entry.fill[column] === value).map(([id]) => id);
}

/** A 64-bit advisory lock number for a catalog key; sorting these numbers gives every transaction the same lock order. */
function lockNumber(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigInt64BE(0);
}

/** Takes the advisory locks of `keys` in ascending lock-number order, in one statement; they last until the transaction ends. */
async function lockAll(tx: Tx, keys: ReadonlySet<string>): Promise<void> {
  if (keys.size === 0) return;
  const numbers = [...new Set([...keys].map(lockNumber))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // unnest yields the array in order, and each row's lock is taken as the row is produced.
  await sql`select pg_advisory_xact_lock(n) from unnest(string_to_array(${numbers.join(',')}, ',')::bigint[]) as n`.execute(tx);
}

const artistLock = (nameKey: string) => `artist:${nameKey}`;

/**
 * The locks that serialize creating what a listen may need: its artist by name
 * key (which also covers that artist's albums and tracks) and every identifier
 * a unique or matching index keys on.
 */
function createLocks(metadata: TrackMetadata): string[] {
  return [
    artistLock(artistKey(metadata.artist)),
    metadata.artistMbid && `artist-mbid:${metadata.artistMbid}`,
    metadata.albumMbid && `album-mbid:${metadata.albumMbid}`,
    metadata.mbid && `recording:${metadata.mbid}`,
    metadata.isrc && `isrc:${metadata.isrc.toUpperCase()}`,
  ].filter((key): key is string => Boolean(key));
}

/**
 * Creating under an artist needs that artist's lock. An artist found by MBID
 * may carry another name key than the listen's; its lock was planned up front
 * when the artist existed then, and if it appeared since, the transaction runs again.
 */
function requireArtistLock(pass: Pass, nameKey: string): void {
  if (!pass.locked.has(artistLock(nameKey))) throw new RetryableConflict(`artist ${nameKey} appeared after the lock set was planned`);
}

/** The earliest-created track with this identifier, counting gaps this pass fills. */
async function trackWith(tx: Tx, pass: Pass, column: 'mbid' | 'isrc', value: string): Promise<CandidateRow | undefined> {
  const filled = filledWith(pass, column, value);
  return tx
    .selectFrom('tracks')
    .select(TRACK_COLUMNS)
    .where((eb) => (filled.length ? eb.or([eb(column, '=', value), eb('id', 'in', filled)]) : eb(column, '=', value)))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

async function trackByIdentifier(tx: Tx, pass: Pass, metadata: TrackMetadata): Promise<CandidateRow | undefined> {
  const byMbid = metadata.mbid ? await trackWith(tx, pass, 'mbid', metadata.mbid) : undefined;
  if (byMbid) return byMbid;
  return metadata.isrc ? await trackWith(tx, pass, 'isrc', metadata.isrc.toUpperCase()) : undefined;
}

type ArtistRow = { id: string; name_key: string };

async function findArtist(tx: Tx, metadata: TrackMetadata): Promise<ArtistRow | undefined> {
  if (metadata.artistMbid) {
    const byMbid = await tx.selectFrom('artists').select(['id', 'name_key']).where('mbid', '=', metadata.artistMbid).executeTakeFirst();
    if (byMbid) return byMbid;
  }
  return tx
    .selectFrom('artists')
    .select(['id', 'name_key'])
    .where('name_key', '=', artistKey(metadata.artist))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

/** A track by the same artist with the same title, preferring one on the same album. */
async function trackByName(tx: Tx, artistId: string, metadata: TrackMetadata): Promise<CandidateRow | undefined> {
  const album = metadata.album;
  return tx
    .selectFrom('tracks')
    .leftJoin('albums', 'albums.id', 'tracks.album_id')
    .select(TRACK_COLUMNS)
    .where('tracks.artist_id', '=', artistId)
    .where('tracks.title_key', '=', titleKey(metadata.title))
    .$if(album !== undefined, (query) =>
      query.orderBy(sql`case when ${sql.ref('albums.title_key')} = ${albumKey(album!)} then 0 else 1 end`),
    )
    .orderBy('tracks.created_at')
    .limit(1)
    .executeTakeFirst();
}

async function createArtist(tx: Tx, metadata: TrackMetadata): Promise<ArtistRow> {
  const name = primaryArtist(metadata.artist);
  return tx
    .insertInto('artists')
    .values({ name, name_key: artistKey(name), mbid: metadata.artistMbid ?? null })
    .returning(['id', 'name_key'])
    .executeTakeFirstOrThrow();
}

function albumMatch(artistId: string, key: string, mbid: string | undefined) {
  return (eb: ExpressionBuilder<DB, 'albums'>) => {
    const byName = eb.and([eb('artist_id', '=', artistId), eb('title_key', '=', key)]);
    return mbid ? eb.or([eb('mbid', '=', mbid), byName]) : byName;
  };
}

async function findOrCreateAlbum(tx: Tx, artistId: string, metadata: TrackMetadata): Promise<string | null> {
  if (!metadata.album) return null;
  const key = albumKey(metadata.album);
  const existing = await tx
    .selectFrom('albums')
    .select('id')
    .where(albumMatch(artistId, key, metadata.albumMbid))
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
      year: metadata.year ?? null,
      genre: metadata.genre ?? null,
      label: metadata.label ?? null,
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
      composer: metadata.composer ?? null,
      label: metadata.label ?? null,
      bpm: metadata.bpm ?? null,
      key: metadata.key ?? null,
      lyrics: metadata.lyrics ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/**
 * Finds the catalog track a listen refers to, live: by recording MBID, then
 * ISRC, then normalized artist + title (+ album). Creates it when `create`
 * allows; otherwise null for an unmatched listen. The pass already holds the
 * locks of everything this may create, so what it finds cannot appear behind its back.
 */
async function resolveLive(tx: Tx, pass: Pass, metadata: TrackMetadata, create: boolean): Promise<ResolvedTrack | null> {
  const byIdentifier = await trackByIdentifier(tx, pass, metadata);
  if (byIdentifier) {
    enrich(pass.fills, byIdentifier, metadata);
    return { trackId: byIdentifier.id, matched: true };
  }
  const knownArtist = await findArtist(tx, metadata);
  if (knownArtist) {
    const byName = await trackByName(tx, knownArtist.id, metadata);
    if (byName) {
      enrich(pass.fills, byName, metadata);
      return { trackId: byName.id, matched: true };
    }
  }
  if (!create) return null;
  if (knownArtist) requireArtistLock(pass, knownArtist.name_key);
  const artist = knownArtist ?? (await createArtist(tx, metadata));
  return { trackId: await createTrack(tx, artist.id, metadata), matched: false };
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
  const byMbid = mbids.length ? await tx.selectFrom('tracks').select(TRACK_COLUMNS).where('mbid', 'in', mbids).execute() : [];
  const byIsrc = isrcs.length ? await tx.selectFrom('tracks').select(TRACK_COLUMNS).where('isrc', 'in', isrcs).execute() : [];
  const artists = artistKeys.length ? await tx.selectFrom('artists').select(['id', 'name_key', 'created_at']).where('name_key', 'in', artistKeys).execute() : [];
  const artistByKey = earliestBy(artists, (row) => row.name_key);
  const artistIds = unique([...artistByKey.values()].map((row) => row.id));
  const named =
    artistIds.length && titleKeys.length
      ? await tx
          .selectFrom('tracks')
          .leftJoin('albums', 'albums.id', 'tracks.album_id')
          .select([...TRACK_COLUMNS, 'tracks.artist_id', 'tracks.title_key', 'albums.title_key as album_key'])
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
 * The track resolveLive would find, from prefetched rows. Only hits are
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
 * The locks creating the listens' catalog entries may need, planned before
 * anything is written: each listen's own keys, plus the name key of any
 * artist its artist MBID already names.
 */
async function plannedLocks(tx: Tx, misses: readonly TrackMetadata[]): Promise<Set<string>> {
  const keys = new Set(misses.flatMap(createLocks));
  const artistMbids = unique(misses.map((metadata) => metadata.artistMbid));
  if (artistMbids.length) {
    const named = await tx.selectFrom('artists').select('name_key').where('mbid', 'in', artistMbids).execute();
    for (const row of named) keys.add(artistLock(row.name_key));
  }
  return keys;
}

/**
 * The catalog tracks of listens, in input order (null for an unmatched listen
 * when `create` is false). Tracks the catalog already has are found set-based;
 * the rest are resolved live one by one, in order, after the locks of all of
 * them were taken at once. A single listen is a batch of one.
 */
export async function resolveTracks(tx: Tx, items: readonly TrackMetadata[], create: boolean): Promise<(ResolvedTrack | null)[]> {
  const found = await prefetch(tx, items);
  const hits = items.map((metadata) => prefetchedMatch(found, metadata));
  const locked = create ? await plannedLocks(tx, items.filter((_, i) => !hits[i])) : new Set<string>();
  await lockAll(tx, locked);
  const pass: Pass = { locked, fills: new Map() };
  const resolved: (ResolvedTrack | null)[] = [];
  for (const [i, metadata] of items.entries()) {
    const hit = hits[i];
    if (hit) enrich(pass.fills, hit, metadata);
    resolved.push(hit ? { trackId: hit.id, matched: true } : await resolveLive(tx, pass, metadata, create));
  }
  await applyFills(tx, pass.fills);
  return resolved;
}

/**
 * The catalog tracks of the listens the catalog already has, in input order
 * (undefined for the rest, which resolveTracks must resolve live), with the
 * gaps they fill written. Such a listen creates nothing, so it takes no
 * advisory lock: a whole batch of them costs one prefetch and one update,
 * however many there are. Hits are trusted as of the prefetch, exactly as
 * resolveTracks trusts them.
 */
export async function resolveKnownTracks(tx: Tx, items: readonly TrackMetadata[]): Promise<(ResolvedTrack | undefined)[]> {
  const found = await prefetch(tx, items);
  const fills: Fills = new Map();
  const resolved = items.map((metadata) => {
    const hit = prefetchedMatch(found, metadata);
    if (!hit) return undefined;
    enrich(fills, hit, metadata);
    return { trackId: hit.id, matched: true };
  });
  await applyFills(tx, fills);
  return resolved;
}

/** The catalog track of one listen: resolveTracks for a batch of one. */
export async function resolveTrack(tx: Tx, metadata: TrackMetadata, create: boolean): Promise<ResolvedTrack | null> {
  const [resolved] = await resolveTracks(tx, [metadata], create);
  return resolved ?? null;
}
